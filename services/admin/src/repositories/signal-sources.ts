import { sql, type Database, type Kysely, type SignalSourceRow } from '@signals/db'

type Db = Kysely<Database>

/** Live operator sources (no owner), oldest first, each with how many traders subscribe to it. */
export async function listOperatorSources(db: Db): Promise<(SignalSourceRow & { subscribers: number })[]> {
  return db
    .selectFrom('signal_sources as s')
    .selectAll('s')
    .select(sql<number>`(SELECT count(*)::int FROM signal_source_subscriptions sub WHERE sub.source_id = s.id)`.as('subscribers'))
    .where('s.owner_user_id', 'is', null)
    .where('s.revoked_at', 'is', null)
    .orderBy('s.created_at')
    .orderBy('s.id')
    .execute()
}

export async function insertOperatorSource(db: Db, source: { name: string; tokenHash: string }): Promise<SignalSourceRow> {
  return db.insertInto('signal_sources').values({ owner_user_id: null, name: source.name, token_hash: source.tokenHash }).returningAll().executeTakeFirstOrThrow()
}

export async function rotateOperatorSource(db: Db, id: string, tokenHash: string): Promise<SignalSourceRow | undefined> {
  return db
    .updateTable('signal_sources')
    .set({ token_hash: tokenHash, rotated_at: new Date() })
    .where('id', '=', id)
    .where('owner_user_id', 'is', null)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

export async function revokeOperatorSource(db: Db, id: string): Promise<SignalSourceRow | undefined> {
  return db.updateTable('signal_sources').set({ revoked_at: new Date() }).where('id', '=', id).where('owner_user_id', 'is', null).where('revoked_at', 'is', null).returningAll().executeTakeFirst()
}

/**
 * A ban revokes every live source of the user (issue 22): their URLs stop working at once (the trigger
 * queues each hash for the settings relay, which removes it from ingest's bucket). Lifting the ban does
 * not bring them back; the trader makes new ones.
 */
export async function revokeSourcesOf(trx: Db, userId: string): Promise<number> {
  const result = await trx.updateTable('signal_sources').set({ revoked_at: new Date() }).where('owner_user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/**
 * Approval changed: the user's live sources are checked again by the relay (an unapproved owner's source
 * stops working, and works again once re-approved).
 */
export async function requeueSourcesOf(trx: Db, userId: string): Promise<void> {
  await sql`INSERT INTO signal_source_key_changes (token_hash)
    SELECT token_hash FROM signal_sources WHERE owner_user_id = ${userId} AND revoked_at IS NULL`.execute(trx)
}
