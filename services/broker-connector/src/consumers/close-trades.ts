import { computePnl, contractSpec, rootOf } from '@signals/instruments'
import { PermanentError } from '@signals/bus'
import type { NormalizedAlert } from '@signals/contracts'
import type { Database, Kysely, TradeResult } from '@signals/db'
import { decimalText } from '../decimal-text.ts'
import { closeTrades, lockOpenTrades, type OpenTrade, type TradeClose } from '../repositories/trades.ts'
import type { Routing } from '../repositories/alerts.ts'

export interface Logger {
  info(object: object, message: string): void
  warn(object: object, message: string): void
}

/** The result the trade stores: `Exit` is `Session End` (DESIGN decision 7). */
export function tradeResultOf(result: NonNullable<NormalizedAlert['result']>): TradeResult {
  return result === 'Exit' ? 'Session End' : result
}

/**
 * Money per point for a trade: its contract's point value. A symbol outside the contract table (an
 * equity, a coin) is priced as one unit of currency per point per unit of quantity, and said so in the log.
 */
export function pointValueOf(trade: Pick<OpenTrade, 'symbol' | 'root'>, logger: Logger): string {
  const root = trade.root ?? rootOf(trade.symbol)
  const spec = root === null ? undefined : contractSpec(root)
  if (spec) return spec.pointValue
  logger.warn({ symbol: trade.symbol }, 'no contract specification for this symbol; pnl uses a point value of 1')
  return '1'
}

export interface CloseOutcome {
  closedTradeIds: number[]
}

/**
 * Intake rule 7: closes every open trade with the alert's symbol (or its contract root), within the
 * routing scope, at the alert's exit price, with exact pnl. One transaction: the trades are locked, each
 * pnl computed in decimal, then all closed by one conditional update.
 */
export async function closeTradesForResult(
  db: Kysely<Database>,
  alert: NormalizedAlert,
  routing: Routing,
  logger: Logger,
): Promise<CloseOutcome> {
  if (alert.result === null) throw new PermanentError('a result alert without a result (TP, SL or Exit)')
  if (alert.symbol === null) throw new PermanentError('a result alert without a symbol')
  const exit = alert.exitPrice ?? alert.entryPrice
  if (exit === null) throw new PermanentError('a result alert without an exit price')
  const exitPrice = decimalText(exit)
  const result = tradeResultOf(alert.result)
  const symbol = alert.symbol
  const root = alert.root ?? rootOf(symbol)
  const userId = routing === 'targeted' && alert.userId !== null ? alert.userId : undefined

  const closedTradeIds = await db.transaction().execute(async (trx) => {
    const open = await lockOpenTrades(trx, { symbol, root, userId })
    const closes: TradeClose[] = open.map((trade) => ({
      id: trade.id,
      exitPrice,
      pnl: computePnl({
        side: trade.side,
        entryPrice: trade.entry_price,
        exitPrice,
        quantity: trade.quantity,
        pointValue: pointValueOf(trade, logger),
      }),
    }))
    return closeTrades(trx, closes, result, alert.alertId)
  })
  if (closedTradeIds.length === 0) {
    logger.info({ alertId: alert.alertId, symbol, root }, 'result alert: no open trade for this symbol; nothing changed')
  } else {
    logger.info({ alertId: alert.alertId, symbol, result, trades: closedTradeIds.length }, 'result alert closed trades')
  }
  return { closedTradeIds }
}
