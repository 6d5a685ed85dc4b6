import { prepared, sql, storableText, storableTextOrNull, type Database, type Kysely } from '@signals/db'
import type { IntakeLogEntry } from '@signals/contracts'

/**
 * Writes webhook outcomes in one statement; an entry already written (a redelivered batch, an entry
 * resent in another batch) is skipped by its intake id. Text Postgres cannot store (a NUL byte) is escaped.
 * The rows travel as one JSON parameter (jsonb_to_recordset) instead of fourteen per entry: a batch holds up
 * to hundreds of entries, and building and sending thousands of parameters was most of the intake log's
 * CPU in the connector (docs/benchmarks/platform.md).
 */
async function insertRows(db: Kysely<Database>, entries: readonly IntakeLogEntry[]): Promise<number> {
  const rows = JSON.stringify(
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
      traceparent: entry.traceparent ?? null,
    })),
  )
  const result = await sql`${prepared}
    INSERT INTO intake_log (intake_id, received_at, source, content_type, remote_address, raw_body, outcome, status_code, reason,
                            alert_id, kind, user_id, authenticated, body_truncated, traceparent)
    SELECT intake_id, received_at, source, content_type, remote_address, raw_body, outcome, status_code, reason,
           alert_id, kind, user_id, authenticated, body_truncated, traceparent
    FROM jsonb_to_recordset(${rows}::jsonb) AS e(intake_id text, received_at timestamptz, source text, content_type text, remote_address text,
         raw_body text, outcome text, status_code int, reason text, alert_id text, kind text, user_id text, authenticated boolean, body_truncated boolean,
         traceparent text)
    ON CONFLICT (intake_id) DO NOTHING`.execute(db)
  return Number(result.numAffectedRows ?? 0n)
}

/** Postgres class 22, data exception: the row's values, not the database, are at fault. */
function isDataException(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && error.code.startsWith('22')
}

/**
 * Writes a batch of webhook outcomes in one statement; returns how many rows are new. One entry Postgres
 * refuses for its values (a data exception the escaping did not foresee) never takes its batch with it:
 * the entries are then written one by one, and each refused one is handed to `setAside` (issue 22).
 * Any other failure (the database down) is thrown, for the batch to be delivered again.
 */
export async function insertIntakeLog(
  db: Kysely<Database>,
  entries: readonly IntakeLogEntry[],
  setAside: (entry: IntakeLogEntry, error: unknown) => void = () => undefined,
): Promise<number> {
  if (entries.length === 0) return 0
  try {
    return await insertRows(db, entries)
  } catch (error) {
    if (!isDataException(error)) throw error
  }
  let inserted = 0
  for (const entry of entries) {
    try {
      inserted += await insertRows(db, [entry])
    } catch (error) {
      if (!isDataException(error)) throw error
      setAside(entry, error)
    }
  }
  return inserted
}
