import type { NormalizedAlert } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import type { PaperBroker } from '@signals/dev-paper-broker'
import { eventually, makeAlert } from '../../helper.ts'
import { tradeOfRecord } from '../../trading-helper.ts'

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
