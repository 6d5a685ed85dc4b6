import { computePnl } from '@signals/instruments'
import { PermanentError } from '@signals/bus'
import type { NormalizedAlert } from '@signals/contracts'
import type { Database, Kysely, TradeResult } from '@signals/db'
import { decimalText } from '../shared/decimal-text.ts'
import type { Logger } from '../shared/logger.ts'
import { pointValueOf } from '../trading/trades/point-value.ts'
import { closeTrades, lockOpenTrades, requestTradeExits, stopUnsentEntries, workingEntryContracts, type OpenTrade } from '../repositories/trades.ts'
import { requestFlattens, type FlattenRequestInput } from '../repositories/flatten-requests.ts'
import type { Routing } from '../repositories/alerts.ts'
import { resultAlertMatch } from './result-match.ts'
import { partialCloseForResult } from './partial-close-result.ts'
import type { ExitOutcome } from './exit-outcome.ts'


/** The result the trade stores: `Exit` is `Session End` (DESIGN decision 7). */
function tradeResultOf(result: NonNullable<NormalizedAlert['result']>): TradeResult {
  return result === 'Exit' ? 'Session End' : result
}

/** A trade the broker holds a position for (opened from a broker fill) closes only from the broker's fills. */
const brokerBacked = (trade: OpenTrade): trade is OpenTrade & { broker_contract_id: number; contract: string } =>
  trade.broker_contract_id !== null && trade.contract !== null

/**
 * Intake rule 7 and DESIGN decisions 7, 17 and 21, in one transaction. The alert's trades are its symbol's
 * (or contract root's), on the side it closes (`closes`: `exit_long` closes longs only), within the routing
 * scope, entered no later than the alert:
 * - a trade with no broker position behind it (legacy, or written without a broker) is closed at once at
 *   the alert's exit price with exact pnl, as the spec says (without a price it is left open and logged);
 * - a broker-backed trade is asked to exit: it stays open, as the broker still holds it, with the alert's
 *   result and price kept as the signal's, and closes from the broker's flatten fill;
 * - matching entries not yet sent are not placed; entries sent and not filled are cancelled by the flatten;
 * - a durable flatten request per (user, contract) is written with it, carried out by the instance holding
 *   the user's session (now, on the next session open, or after the broker's wait).
 */
export async function exitForResult(db: Kysely<Database>, alert: NormalizedAlert, routing: Routing, logger: Logger): Promise<ExitOutcome> {
  if (alert.result === null) throw new PermanentError('a result alert without a result (TP, SL or Exit)')
  if (alert.symbol === null) throw new PermanentError('a result alert without a symbol')
  // Targeted routing reaches the payload's user only: naming none, it reaches no one (never every trader).
  if (routing === 'targeted' && alert.userId === null && alert.sourceId === undefined) {
    logger.warn({ alertId: alert.alertId, symbol: alert.symbol }, 'result alert without user_id under targeted routing: it reaches no one')
    return { closedTradeIds: [], requestedTradeIds: [], flattenUsers: [] }
  }
  if (alert.closePart) return partialCloseForResult(db, { ...alert, symbol: alert.symbol, closePart: alert.closePart }, routing, logger)
  const match = resultAlertMatch({ ...alert, symbol: alert.symbol }, routing)
  const exit = alert.exitPrice ?? alert.entryPrice
  const exitPrice = exit === null ? null : decimalText(exit)
  const result = tradeResultOf(alert.result)

  const outcome = await db.transaction().execute(async (trx): Promise<ExitOutcome> => {
    const open = await lockOpenTrades(trx, match)
    const backed = open.filter(brokerBacked)
    const legacy = open.filter((trade) => !brokerBacked(trade))
    if (exitPrice === null && legacy.length > 0) {
      logger.warn({ alertId: alert.alertId, trades: legacy.map((trade) => trade.id) }, 'result alert without a price: trades with no broker position behind them are left open (no price is guessed)')
    }
    const closes = exitPrice === null ? [] : legacy.map((trade) => ({ id: trade.id, exitPrice, pnl: computePnl({ side: trade.side, entryPrice: trade.entry_price, exitPrice, quantity: trade.quantity, pointValue: pointValueOf(trade, logger) }) }))
    const closedTradeIds = await closeTrades(trx, closes, result, alert.alertId)
    const requestedTradeIds = await requestTradeExits(trx, backed.map((trade) => trade.id), { alertId: alert.alertId, result, signalExitPrice: exitPrice })
    await stopUnsentEntries(trx, match)
    const targets = new Map<string, FlattenRequestInput>()
    const target = (userId: string, contract: string, brokerContractId: number | null) => {
      const key = `${userId}\n${contract}`
      const known = targets.get(key)
      targets.set(key, { userId, contract, brokerContractId: known?.brokerContractId ?? brokerContractId, side: alert.closes, alertId: alert.alertId, result, signalExitPrice: exitPrice, signalAt: alert.receivedAt, source: { id: match.sourceId ?? null } })
    }
    for (const trade of backed) target(trade.user_id, trade.contract, trade.broker_contract_id)
    for (const entry of await workingEntryContracts(trx, match)) target(entry.user_id, entry.contract, null)
    await requestFlattens(trx, [...targets.values()])
    return { closedTradeIds, requestedTradeIds, flattenUsers: [...new Set([...targets.values()].map((request) => request.userId))] }
  })
  logger.info(
    { alertId: alert.alertId, symbol: alert.symbol, result, closes: alert.closes, closed: outcome.closedTradeIds.length, exitsAsked: outcome.requestedTradeIds.length, users: outcome.flattenUsers.length },
    outcome.closedTradeIds.length + outcome.flattenUsers.length === 0 ? 'result alert: no open trade or working entry for this symbol; nothing changed' : 'result alert: trades closed and exits asked',
  )
  return outcome
}
