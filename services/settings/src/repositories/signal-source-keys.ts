import { sql, type Database, type Kysely, type Transaction } from '@signals/db'

/** Queued token hashes, oldest first, locked for this transaction (another relay instance skips them). */
export async function claimKeyChanges(trx: Transaction<Database>, limit: number): Promise<{ id: number; token_hash: string }[]> {
  return trx.selectFrom('signal_source_key_changes').select(['id', 'token_hash']).orderBy('id').limit(limit).forUpdate().skipLocked().execute()
}

export async function deleteKeyChanges(trx: Transaction<Database>, ids: number[]): Promise<void> {
  if (ids.length > 0) await trx.deleteFrom('signal_source_key_changes').where('id', 'in', ids).execute()
}

/**
 * The live source holding `tokenHash` now, or undefined: unknown, rotated away, revoked, or its owner
 * banned or no longer approved (a source works only while its owner could sign in and trade).
 */
export async function liveSourceOfHash(db: Kysely<Database>, tokenHash: string): Promise<{ id: string; owner_user_id: string | null } | undefined> {
  return db
    .selectFrom('signal_sources as s')
    .leftJoin('users as u', 'u.user_id', 's.owner_user_id')
    .select(['s.id', 's.owner_user_id'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('s.owner_user_id', 'is', null),
        eb.and([eb('u.approved', '=', true), sql<boolean>`NOT EXISTS (SELECT 1 FROM banned_emails b WHERE b.email = lower(u.email) OR b.sub = u.user_id)`]),
      ]),
    )
    .executeTakeFirst()
}
