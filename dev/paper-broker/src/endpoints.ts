import { ENDPOINTS, type SyncResponse, type WireRequest, type WireResponse } from '@signals/tradovate-wire'
import { contractById, findContract } from './contracts.ts'
import type { PaperMarket } from './market.ts'
import { accountOf, type PaperAccount, type PaperLogin } from './paper-account.ts'

/** One endpoint: the session's login, the parsed body (`{}` when none) and the request (its query). */
export type Handler = (login: PaperLogin, body: Record<string, unknown>, request: Pick<WireRequest, 'query'>) => Omit<WireResponse, 'i'>

const ok = (d: unknown): Omit<WireResponse, 'i'> => ({ s: 200, d })
const unauthorized = (what: string) => ok({ failureReason: 'Unauthorized', failureText: `${what} must name your account` })

/** Ids of a `…/deps` (`masterid=5`) or `…/ldeps` (`masterids=5,6`) query (orders, fills); none when malformed. */
function orderIds(query: string, key: string): number[] {
  const text = new URLSearchParams(query).get(key) ?? ''
  return text.split(',').map(Number).filter((id) => Number.isSafeInteger(id) && id > 0)
}

/** What every account of the login holds, as one list ordered by id (Tradovate lists a user's entities together). */
function ofLogin<T extends { id: number }>(login: PaperLogin, read: (accountId: number) => T[]): T[] {
  return login.accounts.flatMap((account) => read(account.accountId)).sort((a, b) => a.id - b.id)
}

/** An order command must name one of the login's accounts, by id and by name, and it must be active. */
function orderCommand(login: PaperLogin, body: Record<string, unknown>, place: (account: PaperAccount) => unknown): Omit<WireResponse, 'i'> {
  const account = accountOf(login, body.accountId)
  if (!account || body.accountSpec !== account.accountName) return unauthorized('accountId and accountSpec')
  if (account.active === false) return ok({ failureReason: 'AccountClosed', failureText: `account ${account.accountName} is not active` })
  return ok(place(account))
}

/** The account of an order the login holds (commands on an order name no account), or the login's first. */
const ownerOf = (market: PaperMarket, login: PaperLogin, orderId: unknown): PaperAccount =>
  accountOf(login, market.order(orderId)?.accountId) ?? (login.accounts[0] as PaperAccount)

/** `user/syncrequest`: every account of the login, as Tradovate answers `{users:[userId]}`. */
function syncSnapshot(market: PaperMarket, login: PaperLogin): SyncResponse {
  return {
    users: [{ id: login.userId, name: login.name, status: 'Active' }],
    accounts: login.accounts.map((account) => market.accountEntity(account.accountId)).filter((entity) => entity !== null),
    cashBalances: login.accounts.map((account) => market.cashBalance(account.accountId)).filter((cash) => cash !== null),
    orders: ofLogin(login, (accountId) => market.orders(accountId)),
    orderVersions: ofLogin(login, (accountId) => market.orderVersions(accountId)),
    commands: ofLogin(login, (accountId) => market.commands(accountId)),
    fills: ofLogin(login, (accountId) => market.fills(accountId)),
    positions: ofLogin(login, (accountId) => market.positions(accountId)),
  }
}

/**
 * Every endpoint the paper broker serves after login, the same over the socket and over REST (Tradovate
 * serves one API both ways): lists of the login's accounts, contract lookups and order commands.
 */
export function endpointHandlers(market: PaperMarket): Record<string, Handler> {
  const commandsOf = (login: PaperLogin, query: string, key: string) => ofLogin(login, (accountId) => market.commands(accountId, orderIds(query, key)))
  return {
    [ENDPOINTS.syncRequest]: (login) => ok(syncSnapshot(market, login)),
    [ENDPOINTS.accountList]: (login) => ok(login.accounts.map((account) => market.accountEntity(account.accountId))),
    [ENDPOINTS.contractFind]: (_login, _body, request) => {
      const name = new URLSearchParams(request.query).get('name') ?? ''
      const contract = findContract(name)
      return contract ? ok({ id: contract.id, name: contract.name, contractMaturityId: contract.contractMaturityId }) : { s: 404, d: `Contract ${name} not found` }
    },
    [ENDPOINTS.contractItem]: (_login, _body, request) => {
      const id = Number(new URLSearchParams(request.query).get('id'))
      const contract = contractById(id)
      return contract ? ok({ id: contract.id, name: contract.name, contractMaturityId: contract.contractMaturityId }) : { s: 404, d: `Contract ${id} not found` }
    },
    [ENDPOINTS.cashBalanceSnapshot]: (login, body) => (accountOf(login, body.accountId) ? ok(market.cashSnapshot(body.accountId as number)) : ok({ errorText: 'Access is denied' })),
    [ENDPOINTS.orderList]: (login) => ok(ofLogin(login, (accountId) => market.orders(accountId))),
    [ENDPOINTS.positionList]: (login) => ok(ofLogin(login, (accountId) => market.positions(accountId))),
    [ENDPOINTS.fillList]: (login) => ok(ofLogin(login, (accountId) => market.fills(accountId))),
    // The fees of the login's own fills only (a fill names its order, the order its account).
    [ENDPOINTS.fillFeeLdeps]: (login, _body, request) => {
      const own = new Set(ofLogin(login, (accountId) => market.fills(accountId)).map((fill) => fill.id))
      return ok(market.fillFees(orderIds(request.query, 'masterids').filter((id) => own.has(id))))
    },
    [ENDPOINTS.orderItem]: (login, _body, request) => {
      const id = Number(new URLSearchParams(request.query).get('id'))
      const order = market.order(id)
      return order && accountOf(login, order.accountId) ? ok(order) : { s: 404, d: `Order ${id} not found` }
    },
    [ENDPOINTS.placeOSO]: (login, body) => orderCommand(login, body, (account) => market.placeOso(account.accountId, body)),
    [ENDPOINTS.placeOCO]: (login, body) => orderCommand(login, body, (account) => market.placeOco(account.accountId, body)),
    [ENDPOINTS.placeOrder]: (login, body) => orderCommand(login, body, (account) => market.placeOrder(account.accountId, body)),
    [ENDPOINTS.modifyOrder]: (login, body) => ok(market.modifyOrder(ownerOf(market, login, body.orderId).accountId, body)),
    [ENDPOINTS.liquidatePosition]: (login, body) =>
      accountOf(login, body.accountId) ? ok(market.liquidate(body.accountId as number, body.contractId)) : unauthorized('accountId'),
    // The order's own account when it is one of the login's; any other order is "not found".
    [ENDPOINTS.cancelOrder]: (login, body) => ok(market.cancelOrder(ownerOf(market, login, body.orderId).accountId, body.orderId, body.isAutomated)),
    [ENDPOINTS.orderVersionDeps]: (login, _body, request) => {
      const [orderId] = orderIds(request.query, 'masterid')
      return ok(ofLogin(login, (accountId) => market.orderVersions(accountId)).filter((version) => version.orderId === orderId))
    },
    [ENDPOINTS.commandList]: (login) => ok(ofLogin(login, (accountId) => market.commands(accountId))),
    [ENDPOINTS.commandDeps]: (login, _body, request) => ok(commandsOf(login, request.query, 'masterid')),
    [ENDPOINTS.commandLdeps]: (login, _body, request) => ok(commandsOf(login, request.query, 'masterids')),
  }
}
