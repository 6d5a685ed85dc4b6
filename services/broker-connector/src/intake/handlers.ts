import type { MessageContext } from '@signals/bus'
import type { NormalizedAlert, IntakeLogBatch } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import type { EntryFlow } from '../trading/entry/entry-flow.ts'
import { recordEntryAlert, insertTestRecord, type Routing } from '../repositories/alerts.ts'
import { insertIntakeLog } from '../repositories/intake-log.ts'
import { exitForResult } from './close-trades.ts'
import type { Logger } from '../shared/logger.ts'
import type { FlattenDispatch } from '../trading/positions/flatten-dispatch.ts'

export interface HandlerDeps {
  db: Kysely<Database>
  routing: Routing
  entryFlow: EntryFlow
  logger: Logger
  /** Hands users' pending flattens to the instances holding their sessions (a result alert's exits). */
  flattens: FlattenDispatch
  /** Called with counts for metrics. */
  onRecorded?: (kind: 'entry' | 'test' | 'intake', count: number) => void
  onTradesClosed?: (count: number) => void
}

/**
 * alerts.entry: one record per live user in one statement, then the hand-off to the entry flow.
 * When this delivery created nothing (a redelivery, or another instance got there first), records of
 * this alert the entry flow has not settled are handed over instead, so a crash between the insert and
 * the hand-off, or a record handed back to wait for a broker session, loses nothing; the entry flow's
 * per-record lock and conditional updates keep it to once.
 */
/**
 * Whose accounts an entry-flow alert reaches: the deployment's routing, except that flatten everything, the
 * kill switch and cancel reach the sender's own account only, whatever the routing: a cancel without a type
 * takes the stops off open trades, which no vendor's signal may do to every trader at once (review, stop 28;
 * docs/decisions/order-management-words.md).
 */
export function recordRoutingOf(alert: NormalizedAlert, routing: Routing): Routing {
  const kind = alert.instruction?.kind
  return kind === 'flatten_account' || kind === 'kill_switch' || kind === 'cancel' ? 'targeted' : routing
}

export function entryAlertHandler(deps: HandlerDeps) {
  const recordAsTest = testAlertHandler(deps)
  return async (alert: NormalizedAlert, context?: MessageContext): Promise<void> => {
    if (alert.isVendorTest) return recordAsTest(alert)
    const { created, unsettled } = await recordEntryAlert(deps.db, alert, recordRoutingOf(alert, deps.routing))
    deps.onRecorded?.('entry', created.length)
    const records = created.length > 0 ? created : unsettled
    if (created.length === 0 && records.length === 0) {
      deps.logger.info(
        { alertId: alert.alertId, routing: deps.routing, owner: alert.userId },
        'entry alert: no user with live trading enabled (or already recorded); nothing to do',
      )
      return
    }
    if (created.length > 0) deps.logger.info({ alertId: alert.alertId, records: created.length }, 'entry alert recorded')
    const working = context ? () => context.working() : undefined
    await deps.entryFlow.handOff(alert, records, { working })
  }
}

/**
 * alerts.result: the alert's trades are closed (no broker position behind them) or asked to exit, with
 * durable flatten requests, in one transaction; then the requests are handed to the instances holding the
 * users' sessions. That hand-over is best effort: a flatten not carried out now is carried out when the
 * user's session opens or its wait is over (the holder's sweep), so the message is acknowledged.
 */
export function resultAlertHandler(deps: HandlerDeps) {
  const recordAsTest = testAlertHandler(deps)
  return async (alert: NormalizedAlert): Promise<void> => {
    // A test alert is never traded, whichever subject it came on.
    if (alert.isVendorTest) return recordAsTest(alert)
    const { closedTradeIds, flattenUsers } = await exitForResult(deps.db, alert, deps.routing, deps.logger)
    deps.onTradesClosed?.(closedTradeIds.length)
    await deps.flattens.dispatch(flattenUsers)
  }
}

/** alerts.test: recorded once as a test alert; never handed to the entry flow. */
export function testAlertHandler(deps: HandlerDeps) {
  return async (alert: NormalizedAlert): Promise<void> => {
    const created = await insertTestRecord(deps.db, alert)
    deps.onRecorded?.('test', created ? 1 : 0)
    deps.logger.info({ alertId: alert.alertId, indicator: alert.indicator, created }, 'test alert recorded (never traded)')
  }
}

/**
 * intake.log: one row per webhook request, a batch of them in one statement. An entry Postgres refuses for
 * its values is written to the process log whole (it was redacted by ingest) instead of dead-lettering
 * its batch.
 */
export function intakeLogHandler(deps: HandlerDeps) {
  const setAside = (entry: IntakeLogBatch['entries'][number], error: unknown) =>
    deps.logger.warn({ intakeLogEntry: entry, err: error }, 'intake-log entry refused by the database; kept here, the rest of its batch written')
  return async (batch: IntakeLogBatch): Promise<void> => {
    deps.onRecorded?.('intake', await insertIntakeLog(deps.db, batch.entries, setAside))
  }
}
