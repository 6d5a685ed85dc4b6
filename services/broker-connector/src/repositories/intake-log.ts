import { storableText, storableTextOrNull, type Database, type Kysely } from '@signals/db'
import type { IntakeLogEntry } from '@signals/contracts'

/**
 * Writes webhook outcomes in one statement; an entry already written (a redelivered batch, an entry
 * resent in another batch) is skipped by its intake id. Text Postgres cannot store (a NUL byte) is escaped,
 * so one odd body never refuses the batch it sits in. Returns how many rows are new.
 */
export async function insertIntakeLog(db: Kysely<Database>, entries: readonly IntakeLogEntry[]): Promise<number> {
  if (entries.length === 0) return 0
  const result = await db
    .insertInto('intake_log')
    .values(
      entries.map((entry) => ({
        intake_id: entry.intakeId,
        received_at: entry.receivedAt,
        source: storableText(entry.source),
        content_type: storableTextOrNull(entry.contentType),
        remote_address: storableTextOrNull(entry.remoteAddress),
        raw_body: storableText(entry.rawBody),
        outcome: entry.outcome,
        status_code: entry.statusCode,
        reason: storableTextOrNull(entry.reason),
        alert_id: entry.alertId,
        kind: entry.kind,
        user_id: storableTextOrNull(entry.userId ?? null),
        authenticated: entry.authenticated ?? false,
        body_truncated: entry.bodyTruncated ?? false,
      })),
    )
    .onConflict((oc) => oc.column('intake_id').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n)
}
