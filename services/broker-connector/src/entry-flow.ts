import { sql, type Database, type Kysely } from '@signals/db'
import type { NormalizedAlert } from '@signals/contracts'
import type { NewAlertRecordRef } from './repositories/alerts.ts'

/**
 * The seam between alert intake and order placement (spec: "continues into a live entry flow").
 * The connector hands every new live record of an entry alert to `handOff`, at least once; an
 * implementation must therefore claim each record with a conditional update (`WHERE status =
 * 'received'`) so a record handed over twice (redelivery, a second instance) is acted on once.
 * Order placement belongs to the live-trading work, which plugs in its own implementation here.
 */
export interface EntryFlow {
  handOff(alert: NormalizedAlert, records: readonly NewAlertRecordRef[]): Promise<void>
}

/** Record statuses the connector writes. */
export const AlertStatus = {
  /** Written, not yet handed to the entry flow. */
  received: 'received',
  /** Handed to the entry flow; waits for order placement. */
  queued: 'queued',
  /** Handed over but lacks what an order needs (action, symbol): never tradable. */
  incomplete: 'incomplete',
  /** A test alert: recorded, never traded. */
  test: 'test',
} as const

/**
 * What can honestly be done before order placement exists: claim each record for entry, marking it
 * `queued` (or `incomplete` when it could never become an order). It places nothing and publishes nothing.
 * Returns how many records it claimed.
 */
export class QueueingEntryFlow implements EntryFlow {
  constructor(private readonly db: Kysely<Database>) {}

  async handOff(_alert: NormalizedAlert, records: readonly NewAlertRecordRef[]): Promise<void> {
    await this.claim(records)
  }

  async claim(records: readonly NewAlertRecordRef[]): Promise<number> {
    if (records.length === 0) return 0
    const ids = records.map((record) => record.id)
    const result = await sql`
      UPDATE alerts
      SET status = CASE WHEN action IS NULL OR symbol IS NULL THEN ${AlertStatus.incomplete} ELSE ${AlertStatus.queued} END
      WHERE id = ANY(${ids}::bigint[]) AND status = ${AlertStatus.received}`.execute(this.db)
    return Number(result.numAffectedRows ?? 0n)
  }
}
