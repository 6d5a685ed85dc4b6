import type { ClosePart, NormalizedAlert } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import type { Routing } from '../repositories/alerts.ts'
import { resultAlertMatch } from './result-match.ts'
import { lockOpenTrades } from '../repositories/trades.ts'
import { requestPartialCloses } from '../repositories/partial-closes.ts'
import type { ExitOutcome } from './exit-outcome.ts'
import type { Logger } from '../shared/logger.ts'

/**
 * A result alert that closes part of the position (issue 24 item 3): for each user's contract holding the
 * alert's trades (symbol or root, side, routing scope, entered no later than the alert), a durable partial
 * close, carried out at the broker by the instance holding the session. Nothing is closed here, no trade is
 * asked to exit and no working entry is stopped: the rest of the position stays, with its legs. Trades with
 * no broker position behind them are left open (a part of them has no fill to close at), and logged.
 */
export async function partialCloseForResult(db: Kysely<Database>, alert: NormalizedAlert & { closePart: ClosePart; symbol: string }, routing: Routing, logger: Logger): Promise<ExitOutcome> {
  const match = resultAlertMatch(alert, routing)
  const users = await db.transaction().execute(async (trx) => {
    const open = await lockOpenTrades(trx, match)
    const legacy = open.filter((trade) => trade.broker_contract_id === null || trade.contract === null)
    if (legacy.length > 0) logger.warn({ alertId: alert.alertId, trades: legacy.map((trade) => trade.id) }, 'partial close: trades with no broker position behind them are left open')
    const targets = new Map<string, { userId: string; contract: string; brokerContractId: number | null }>()
    for (const trade of open) {
      if (trade.broker_contract_id === null || trade.contract === null) continue
      targets.set(`${trade.user_id}\n${trade.contract}`, { userId: trade.user_id, contract: trade.contract, brokerContractId: trade.broker_contract_id })
    }
    const requests = [...targets.values()].map((target) => ({ ...target, side: alert.closes, alertId: alert.alertId, result: 'Session End' as const, signalExitPrice: null, signalAt: alert.receivedAt, part: alert.closePart }))
    await requestPartialCloses(trx, requests)
    return [...new Set(requests.map((request) => request.userId))]
  })
  logger.info({ alertId: alert.alertId, symbol: alert.symbol, closes: alert.closes, part: alert.closePart, users: users.length }, users.length === 0 ? 'partial close: no open trade for this symbol; nothing changed' : 'partial close asked')
  return { closedTradeIds: [], requestedTradeIds: [], flattenUsers: users }
}
