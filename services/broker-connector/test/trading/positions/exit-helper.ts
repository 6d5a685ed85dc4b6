import type { NormalizedAlert } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import type { PaperBroker } from '@signals/dev-paper-broker'
import type { Test } from 'tap'
import { eventually, makeAlert, publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'

/** A result alert for MNQ as ingest publishes it (no user: it closes every trader's MNQ trades). */
export function mnqExit(overrides: Partial<NormalizedAlert> = {}): NormalizedAlert {
  return makeAlert({ kind: 'result', symbol: 'MNQ1!', root: 'MNQ', result: 'Exit', exitPrice: null, action: null, entryPrice: null, sl: null, tp: null, userId: null, ...overrides })
}

/** The account's net position in MNQZ6 at the paper broker (0 when it never traded it). */
export const netMnq = (broker: PaperBroker, accountId = 9000): number =>
  broker.positions().find((position) => position.accountId === accountId)?.netPos ?? 0

/** Waits until the record's trade exists (its entry filled) and returns it. */
export async function openedTrade(db: Kysely<Database>, recordId: number) {
  await eventually(async () => (await tradeOfRecord(db, recordId)) !== undefined)
  return (await tradeOfRecord(db, recordId))!
}

/** Waits until the record's trade is closed and returns it. */
export async function closedTrade(db: Kysely<Database>, recordId: number, timeoutMs = 15_000) {
  await eventually(async () => (await tradeOfRecord(db, recordId))?.status === 'closed', timeoutMs)
  return (await tradeOfRecord(db, recordId))!
}

/** The user's trades, oldest first. */
export const tradesOf = (db: Kysely<Database>, userId: string) =>
  db.selectFrom('trades').selectAll().where('user_id', '=', userId).orderBy('id').execute()

/** The trader's entry of 5 (stop 20950, target 21100) placed and filled, its bracket working. */
export async function openBracket(t: Test) {
  const connected = await connectedTrader(t)
  const entry = mnqEntry()
  await publishAlert(connected.app, entry)
  const record = await settledRecord(connected.db, entry.alertId)
  await openedTrade(connected.db, record.id)
  await connected.app.trading.keeper.idle()
  return { ...connected, record }
}

/**
 * openBracket, then a partial close of 2 whose send gets no answer before the client's time-out (`late`: held at
 * the broker until released; `server_error`: answered 503, never carried out): its outcome unknown.
 */
export async function bracketWithUnknownClose(t: Test, fault: 'late' | 'server_error' = 'late') {
  const opened = await openBracket(t)
  opened.broker.interfere('order/placeorder', { kind: fault }, 1)
  const close = mnqExit({ closes: 'LONG', quantity: 2, closePart: { quantity: 2, percent: null, remaining: null } })
  await publishAlert(opened.app, close)
  const reason = async () => (await opened.db.selectFrom('flatten_requests').select('reason').where('alert_id', '=', close.alertId).executeTakeFirst())?.reason ?? ''
  await eventually(async () => /did not answer/.test(await reason()))
  return { ...opened, close }
}
