import { ENDPOINTS, type SyncResponse, type WireRequest, type WireResponse } from '@signals/tradovate-wire'
import { findContract } from './contracts.ts'
import type { PaperMarket } from './market.ts'
import type { PaperAccount } from './paper-account.ts'

/** One endpoint: the session's account, the parsed body (`{}` when none) and the request (its query). */
export type Handler = (account: PaperAccount, body: Record<string, unknown>, request: Pick<WireRequest, 'query'>) => Omit<WireResponse, 'i'>

const ok = (d: unknown): Omit<WireResponse, 'i'> => ({ s: 200, d })

/** The account a request names must be the session's own. */
const ownAccount = (account: PaperAccount, body: Record<string, unknown>) => body.accountId === account.accountId
const ownSpec = (account: PaperAccount, body: Record<string, unknown>) => ownAccount(account, body) && body.accountSpec === account.accountName

/** Order ids of a `command/deps` (`masterid=5`) or `command/ldeps` (`masterids=5,6`) query; none when malformed. */
function orderIds(query: string, key: string): number[] {
  const text = new URLSearchParams(query).get(key) ?? ''
  return text.split(',').map(Number).filter((id) => Number.isSafeInteger(id) && id > 0)
}

function syncSnapshot(market: PaperMarket, account: PaperAccount): SyncResponse {
  const id = account.accountId
  const cash = market.cashBalance(id)
  return {
    users: [{ id: account.userId, name: account.name, status: 'Active' }],
    accounts: [market.accountEntity(id)].filter((entity) => entity !== null),
    cashBalances: cash ? [cash] : [],
    orders: market.orders(id),
    orderVersions: market.orderVersions(id),
    commands: market.commands(id),
    fills: market.fills(id),
    positions: market.positions(id),
  }
}

/**
 * Every endpoint the paper broker serves after login, the same over the socket and over REST (Tradovate
 * serves one API both ways): lists of the session's own account, contract lookups and order commands.
 */
export function endpointHandlers(market: PaperMarket): Record<string, Handler> {
  const unauthorized = (what: string) => ok({ failureReason: 'Unauthorized', failureText: `${what} must name your account` })
  return {
    [ENDPOINTS.syncRequest]: (account) => ok(syncSnapshot(market, account)),
    [ENDPOINTS.accountList]: (account) => ok([market.accountEntity(account.accountId)]),
    [ENDPOINTS.contractFind]: (_account, _body, request) => {
      const name = new URLSearchParams(request.query).get('name') ?? ''
      const contract = findContract(name)
      return contract ? ok({ id: contract.id, name: contract.name, contractMaturityId: contract.contractMaturityId }) : { s: 404, d: `Contract ${name} not found` }
    },
    [ENDPOINTS.cashBalanceSnapshot]: (account, body) => (ownAccount(account, body) ? ok(market.cashSnapshot(account.accountId)) : ok({ errorText: 'Access is denied' })),
    [ENDPOINTS.orderList]: (account) => ok(market.orders(account.accountId)),
    [ENDPOINTS.positionList]: (account) => ok(market.positions(account.accountId)),
    [ENDPOINTS.fillList]: (account) => ok(market.fills(account.accountId)),
    [ENDPOINTS.placeOSO]: (account, body) => (ownSpec(account, body) ? ok(market.placeOso(account.accountId, body)) : unauthorized('accountId and accountSpec')),
    [ENDPOINTS.placeOrder]: (account, body) => (ownSpec(account, body) ? ok(market.placeOrder(account.accountId, body)) : unauthorized('accountId and accountSpec')),
    [ENDPOINTS.modifyOrder]: (account, body) => ok(market.modifyOrder(account.accountId, body)),
    [ENDPOINTS.liquidatePosition]: (account, body) => (ownAccount(account, body) ? ok(market.liquidate(account.accountId, body.contractId)) : unauthorized('accountId')),
    [ENDPOINTS.cancelOrder]: (account, body) => ok(market.cancelOrder(account.accountId, body.orderId, body.isAutomated)),
    [ENDPOINTS.orderVersionDeps]: (account, _body, request) => {
      const [orderId] = orderIds(request.query, 'masterid')
      return ok(market.orderVersions(account.accountId).filter((version) => version.orderId === orderId))
    },
    [ENDPOINTS.commandList]: (account) => ok(market.commands(account.accountId)),
    [ENDPOINTS.commandDeps]: (account, _body, request) => ok(market.commands(account.accountId, orderIds(request.query, 'masterid'))),
    [ENDPOINTS.commandLdeps]: (account, _body, request) => ok(market.commands(account.accountId, orderIds(request.query, 'masterids'))),
  }
}
