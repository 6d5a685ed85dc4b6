import { accountOf, type ProjectXLogin } from './accounts.ts'
import { contractOfId, contractView, searchContracts } from './contracts.ts'
import { cancelOrder, closeContract, modifyOrder, partialCloseContract } from './order-commands.ts'
import { placeOrder, type OrderDesk } from './place-order.ts'
import { OrderStatus, ok, refused, type Outcome, type ProjectXAccount } from './wire.ts'

type Fields = Record<string, unknown>

export interface EndpointContext extends OrderDesk {
  accountView(accountId: number): ProjectXAccount
}

/** An endpoint after login: the login, the JSON body; the answer (always HTTP 200). */
export type Endpoint = (context: EndpointContext, login: ProjectXLogin, body: Fields) => Outcome

/** Whether an ISO time lies in [start, end] (end open when not given); a bad filter matches nothing. */
function within(at: string, body: Fields): boolean {
  const start = typeof body.startTimestamp === 'string' ? Date.parse(body.startTimestamp) : Number.NaN
  const end = typeof body.endTimestamp === 'string' ? Date.parse(body.endTimestamp) : Number.POSITIVE_INFINITY
  const time = Date.parse(at)
  return time >= start && time <= end
}

const ACCOUNT_REQUIRED = 1
const searchRefusal = (body: Fields): Outcome => refused(ACCOUNT_REQUIRED, `account ${String(body.accountId)} not found for this login`)
const needsStart = (body: Fields): Outcome | null => (typeof body.startTimestamp === 'string' && !Number.isNaN(Date.parse(body.startTimestamp)) ? null : refused(2, 'startTimestamp is required (an ISO date-time)'))

/** The endpoints behind `/api/` (their ProjectX names), each answering ProjectX's JSON. */
export const ENDPOINTS: Readonly<Record<string, Endpoint>> = {
  'Account/search': (context, login, body) => ok({ accounts: login.accounts.filter((account) => body.onlyActiveAccounts !== true || account.canTrade !== false).map((account) => context.accountView(account.accountId)) }),
  'Contract/search': (context, _login, body) => ok({ contracts: searchContracts(typeof body.searchText === 'string' ? body.searchText : '', context.now()) }),
  'Contract/searchById': (context, _login, body) => {
    const contract = contractOfId(body.contractId, context.now())
    return contract ? ok({ contract: contractView(contract, context.now()) }) : refused(1, `contract ${JSON.stringify(body.contractId ?? null)} not found`, { contract: null })
  },
  'Order/place': (context, login, body) => placeOrder(context, accountOf(login, body.accountId), body),
  'Order/cancel': (context, login, body) => cancelOrder(context, accountOf(login, body.accountId), body),
  'Order/modify': (context, login, body) => modifyOrder(context, accountOf(login, body.accountId), body),
  'Order/search': (context, login, body) => {
    if (!accountOf(login, body.accountId)) return searchRefusal(body)
    return needsStart(body) ?? ok({ orders: context.book.orders(body.accountId as number).filter((order) => within(order.creationTimestamp, body)) })
  },
  'Order/searchOpen': (context, login, body) => {
    if (!accountOf(login, body.accountId)) return searchRefusal(body)
    return ok({ orders: context.book.orders(body.accountId as number).filter((order) => order.status === OrderStatus.Open) })
  },
  'Position/searchOpen': (context, login, body) => (accountOf(login, body.accountId) ? ok({ positions: context.book.positions(body.accountId as number) }) : searchRefusal(body)),
  'Position/closeContract': (context, login, body) => closeContract(context, accountOf(login, body.accountId), body),
  'Position/partialCloseContract': (context, login, body) => partialCloseContract(context, accountOf(login, body.accountId), body),
  'Trade/search': (context, login, body) => {
    if (!accountOf(login, body.accountId)) return searchRefusal(body)
    return needsStart(body) ?? ok({ trades: context.book.trades(body.accountId as number).filter((trade) => within(trade.creationTimestamp, body)) })
  },
}
