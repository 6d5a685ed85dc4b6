import { add, parseDecimal, subtract, toPlain, type Decimal } from '@signals/instruments'
import type { TradeCommission } from '@signals/contracts'

/** A trade as its commission is reckoned: its quantity, and its entry fills (a closed part's are its parent's). */
export interface CommissionTrade {
  id: number
  parentTradeId: number | null
  contract: string | null
  side: 'LONG' | 'SHORT'
  quantity: string
  status: string
  pnl: string | null
  entryFillIds: readonly string[]
}

/** Contracts of one fill that closed (part of) a trade (`trade_exit_fills`). */
export interface ExitFillShare {
  tradeId: number
  fillId: number
  quantity: number
}

/** `amount × part / whole`, to the cent (half away from zero): a fill's fee shared by the contracts each trade took. */
function share(amount: Decimal, part: number, whole: number): Decimal {
  if (part === whole) return amount
  const scaled = amount.units * 10n ** BigInt(Math.max(0, 2 - amount.scale)) * BigInt(part)
  const divisor = 10n ** BigInt(Math.max(0, amount.scale - 2)) * BigInt(whole)
  const rounded = (2n * scaled + (scaled < 0n ? -divisor : divisor)) / (2n * divisor)
  return { units: rounded, scale: 2 }
}

/**
 * Each trade's commission: its share of its entry fills' fees (the family's entry fills shared by quantity
 * between the trade and its closed parts) plus its share of the fees of the fills that closed it, and its
 * pnl net of them once closed. Unknown (null) when a fill it needs is not among `fills` (the broker lists
 * the day's) or has no fee the broker reported.
 */
export function tradeCommissions(trades: readonly CommissionTrade[], exits: readonly ExitFillShare[], fills: ReadonlyMap<number, number>, fees: ReadonlyMap<number, string>): TradeCommission[] {
  const byId = new Map(trades.map((trade) => [trade.id, trade]))
  const familyQuantity = new Map<number, number>()
  for (const trade of trades) {
    const root = trade.parentTradeId ?? trade.id
    familyQuantity.set(root, (familyQuantity.get(root) ?? 0) + Number(trade.quantity))
  }
  return trades.map((trade) => {
    const root = byId.get(trade.parentTradeId ?? trade.id)
    let total: Decimal | null = parseDecimal('0')
    const known = (fillId: number) => fills.has(fillId) && fees.has(fillId)
    const entryIds = (root?.entryFillIds ?? []).map(Number)
    if (root === undefined || entryIds.length === 0 || !entryIds.every(known)) total = null
    else {
      const entryFees = entryIds.reduce((sum, id) => add(sum, parseDecimal(fees.get(id) as string)), parseDecimal('0'))
      total = add(total, share(entryFees, Number(trade.quantity), familyQuantity.get(root.id) ?? Number(trade.quantity)))
    }
    for (const exit of exits.filter((one) => one.tradeId === trade.id)) {
      if (total === null) break
      if (!known(exit.fillId)) total = null
      else total = add(total, share(parseDecimal(fees.get(exit.fillId) as string), exit.quantity, fills.get(exit.fillId) as number))
    }
    const commission = total === null ? null : toPlain(total)
    const closed = trade.status !== 'open' && trade.pnl !== null
    return {
      tradeId: String(trade.id),
      contract: trade.contract,
      side: trade.side,
      quantity: Number(trade.quantity),
      status: trade.status,
      pnl: closed ? trade.pnl : null,
      commission,
      netPnl: closed && total !== null ? toPlain(subtract(parseDecimal(trade.pnl as string), total)) : null,
    }
  })
}
