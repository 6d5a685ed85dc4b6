import type { Database, Kysely } from '@signals/db'

export interface IntakePageQuery {
  outcome?: string
  /** Only entries ingest read as this kind (entry, result, test). */
  kind?: string
  limit: number
  beforeId?: number
  /** Only entries whose payload named this user. */
  userId?: string
  /** Only refusals: every outcome but accepted and duplicate. */
  refusedOnly?: boolean
}

/** The intake log, newest first, one page (`beforeId`: only older entries). */
export async function listIntake(db: Kysely<Database>, query: IntakePageQuery) {
  let select = db.selectFrom('intake_log').selectAll()
  if (query.outcome !== undefined) select = select.where('outcome', '=', query.outcome)
  if (query.kind !== undefined) select = select.where('kind', '=', query.kind)
  if (query.beforeId !== undefined) select = select.where('id', '<', query.beforeId)
  if (query.userId !== undefined) select = select.where('user_id', '=', query.userId)
  if (query.refusedOnly === true) select = select.where('outcome', 'not in', ['accepted', 'duplicate'])
  return select.orderBy('id', 'desc').limit(query.limit).execute()
}

export async function findIntake(db: Kysely<Database>, id: number) {
  return db.selectFrom('intake_log').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Deletes up to `limit` entries received before `cutoff` (rows another deleter holds are skipped); returns how many. */
export async function deleteIntakeBefore(db: Kysely<Database>, cutoff: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('intake_log')
    .where('id', 'in', (eb) => eb.selectFrom('intake_log').select('id').where('received_at', '<', cutoff).orderBy('received_at').limit(limit).forUpdate().skipLocked())
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
