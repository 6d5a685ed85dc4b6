import type { Database, Kysely } from '@signals/db'
import type { IntakeLogMessage } from '@signals/contracts'

/** Writes one webhook outcome; a redelivered message (same intake id) is a no-op. Returns whether it was new. */
export async function insertIntakeLog(db: Kysely<Database>, entry: IntakeLogMessage): Promise<boolean> {
  const result = await db
    .insertInto('intake_log')
    .values({
      intake_id: entry.intakeId,
      received_at: entry.receivedAt,
      source: entry.source,
      content_type: entry.contentType,
      remote_address: entry.remoteAddress,
      raw_body: entry.rawBody,
      outcome: entry.outcome,
      status_code: entry.statusCode,
      reason: entry.reason,
      alert_id: entry.alertId,
      kind: entry.kind,
    })
    .onConflict((oc) => oc.column('intake_id').doNothing())
    .executeTakeFirst()
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n
}
