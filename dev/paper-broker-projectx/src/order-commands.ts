import { normalizeDecimal, type PaperContract } from '@signals/dev-paper-broker/engine'
import type { ProjectXPaperAccount } from './accounts.ts'
import { contractOfId } from './contracts.ts'
import type { OrderDesk } from './place-order.ts'
import { ClosePositionError, OrderCommandError, PartialCloseError, ok, refused, type Outcome } from './wire.ts'

type Fields = Record<string, unknown>

const LIVE = new Set(['Working', 'Suspended'])
const number = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? Number(normalizeDecimal(value)) : undefined)

/** Order/cancel: a working order (an entry takes its waiting bracket legs with it). */
export function cancelOrder(desk: OrderDesk, account: ProjectXPaperAccount | undefined, body: Fields): Outcome {
  if (!account) return refused(OrderCommandError.AccountNotFound, `account ${String(body.accountId)} not found for this login`)
  const result = desk.market.cancelOrder(account.accountId, body.orderId, true)
  if (result.failureReason === 'TooLate') return refused(OrderCommandError.Rejected, result.failureText ?? 'order is not working')
  if (result.failureText) return refused(OrderCommandError.OrderNotFound, result.failureText)
  return ok({})
}

/** Order/modify: a working order's size (its whole size, filled part included) and, for its type, its prices. */
export function modifyOrder(desk: OrderDesk, account: ProjectXPaperAccount | undefined, body: Fields): Outcome {
  if (!account) return refused(OrderCommandError.AccountNotFound, `account ${String(body.accountId)} not found for this login`)
  const order = desk.market.taggedOrders(account.accountId).find((candidate) => candidate.id === body.orderId)
  if (!order) return refused(OrderCommandError.OrderNotFound, `order ${String(body.orderId)} not found`)
  const version = desk.market.orderVersions(account.accountId).find((candidate) => candidate.orderId === order.id)
  if (body.size !== undefined && body.size !== null && !(Number.isSafeInteger(body.size) && (body.size as number) >= 1)) return refused(OrderCommandError.Rejected, 'size must be a whole number of at least 1')
  const stop = number(body.stopPrice) ?? number(body.trailPrice)
  const result = desk.market.modifyOrder(account.accountId, {
    orderId: order.id,
    orderQty: (body.size as number | null | undefined) ?? order.orderQty,
    orderType: version?.orderType,
    ...(number(body.limitPrice) === undefined ? {} : { price: number(body.limitPrice) }),
    ...(stop === undefined ? {} : { stopPrice: stop }),
    isAutomated: true,
  })
  return result.failureText ? refused(OrderCommandError.Rejected, result.failureText) : ok({})
}

/** The account's signed position in a contract, or a refusal. */
function positionOf(desk: OrderDesk, account: ProjectXPaperAccount | undefined, body: Fields, codes: typeof ClosePositionError | typeof PartialCloseError): { refusal: Outcome } | { account: ProjectXPaperAccount; contract: PaperContract; net: number } {
  if (!account) return { refusal: refused(codes.AccountNotFound, `account ${String(body.accountId)} not found for this login`) }
  const contract = contractOfId(body.contractId, desk.now())
  if (!contract) return { refusal: refused(codes.ContractNotFound, `contract ${JSON.stringify(body.contractId ?? null)} not found`) }
  const net = desk.market.positions(account.accountId).find((position) => position.contractId === contract.id)?.netPos ?? 0
  if (net === 0) return { refusal: refused(codes.PositionNotFound, `no open position in ${String(body.contractId)} on account ${account.accountId}`) }
  return { account, contract, net }
}

/** A market order against `size` contracts of the position; when it flattens, the position's bracket legs are cancelled. */
function closing(desk: OrderDesk, accountId: number, contract: { id: number; name: string }, net: number, size: number): string | null {
  const placed = desk.market.placeOrder(accountId, { symbol: contract.name, action: net > 0 ? 'Sell' : 'Buy', orderQty: size, orderType: 'Market', isAutomated: true })
  if (placed.orderId === undefined) return placed.failureText ?? 'order refused'
  if (size < Math.abs(net)) return null
  for (const order of desk.market.taggedOrders(accountId)) {
    if (order.contractId === contract.id && order.parentId != null && LIVE.has(order.ordStatus)) desk.market.cancelOrder(accountId, order.id, true)
  }
  return null
}

/** Position/closeContract: flattens the account's position in the contract at the market. */
export function closeContract(desk: OrderDesk, account: ProjectXPaperAccount | undefined, body: Fields): Outcome {
  const found = positionOf(desk, account, body, ClosePositionError)
  if ('refusal' in found) return found.refusal
  const failure = closing(desk, found.account.accountId, found.contract, found.net, Math.abs(found.net))
  return failure ? refused(ClosePositionError.OrderRejected, failure) : ok({})
}

/** Position/partialCloseContract: closes `size` contracts (at most the position) at the market; the rest keeps its legs. */
export function partialCloseContract(desk: OrderDesk, account: ProjectXPaperAccount | undefined, body: Fields): Outcome {
  const found = positionOf(desk, account, body, PartialCloseError)
  if ('refusal' in found) return found.refusal
  if (!Number.isSafeInteger(body.size) || (body.size as number) < 1 || (body.size as number) > Math.abs(found.net)) {
    return refused(PartialCloseError.InvalidCloseSize, `size must be a whole number from 1 to the position's ${Math.abs(found.net)}`)
  }
  const failure = closing(desk, found.account.accountId, found.contract, found.net, body.size as number)
  return failure ? refused(PartialCloseError.OrderRejected, failure) : ok({})
}
