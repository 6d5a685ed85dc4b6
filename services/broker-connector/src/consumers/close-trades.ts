import { computePnl, contractSpec, rootOf } from '@signals/instruments'
import { PermanentError } from '@signals/bus'
import type { NormalizedAlert } from '@signals/contracts'
import type { Database, Kysely, TradeResult } from '@signals/db'
import { decimalText } from '../decimal-text.ts'
import { closeTrades, lockOpenTrades, type OpenTrade, type TradeClose } from '../repositories/trades.ts'
import type { Routing } from '../repositories/alerts.ts'
import type { SessionSource } from '../entry/plan-record.ts'
import { flattenPositions, positionsClosedBy } from './flatten.ts'

export interface Logger {
  info(object: object, message: string): void
  warn(object: object, message: string): void
}

/** The result the trade stores: `Exit` is `Session End` (DESIGN decision 7). */
function tradeResultOf(result: NonNullable<NormalizedAlert['result']>): TradeResult {
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
 * Intake rule 7 and DESIGN decision 17: closes every open trade with the alert's symbol (or its contract
 * root), within the routing scope, at the alert's exit price, with exact pnl; then flattens those
 * positions at the broker for users with a session (the broker's flatten fill is kept beside the trade by
 * the trade keeper and never closes it again). One transaction for the closes: the trades are locked,
 * each pnl computed in decimal, then all closed by one conditional update.
 *
 * An alert with no exit price closes nothing itself: positions of users with a session are flattened and
 * the trade keeper closes each trade at the broker's flatten fill; a trade of a user without a session
 * is left open and said so in the log, rather than closed at a guessed price.
 */
export async function closeTradesForResult(
  db: Kysely<Database>,
  alert: NormalizedAlert,
  routing: Routing,
  logger: Logger,
  sessions: SessionSource | null = null,
): Promise<CloseOutcome> {
  if (alert.result === null) throw new PermanentError('a result alert without a result (TP, SL or Exit)')
  if (alert.symbol === null) throw new PermanentError('a result alert without a symbol')
  const symbol = alert.symbol
  const root = alert.root ?? rootOf(symbol)
  const userId = routing === 'targeted' && alert.userId !== null ? alert.userId : undefined
  const exit = alert.exitPrice ?? alert.entryPrice
  if (exit === null) {
    if (sessions === null) throw new PermanentError('a result alert without an exit price')
    await flattenWithoutPrice(db, { symbol, root, userId }, sessions, logger, alert.alertId)
    return { closedTradeIds: [] }
  }
  const exitPrice = decimalText(exit)
  const result = tradeResultOf(alert.result)

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
  if (sessions !== null) await flattenPositions(await positionsClosedBy(db, alert.alertId), sessions, logger)
  return { closedTradeIds }
}

/** An exit with no price: flatten what can be flattened; the fills close the trades. */
async function flattenWithoutPrice(
  db: Kysely<Database>,
  match: { symbol: string; root: string | null; userId?: string },
  sessions: SessionSource,
  logger: Logger,
  alertId: string,
): Promise<void> {
  const open = await db.transaction().execute((trx) => lockOpenTrades(trx, match))
  const positions = new Map<string, { user_id: string; contract_id: number }>()
  for (const trade of open) {
    if (trade.broker_contract_id === null || sessions.session(trade.user_id) === null) {
      logger.warn({ alertId, tradeId: trade.id, userId: trade.user_id }, 'exit alert without a price and no broker session: the trade is left open')
      continue
    }
    positions.set(`${trade.user_id}:${trade.broker_contract_id}`, { user_id: trade.user_id, contract_id: trade.broker_contract_id })
  }
  await flattenPositions([...positions.values()], sessions, logger)
}
