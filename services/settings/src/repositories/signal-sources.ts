import type { Database, Kysely, SignalSourceRow, SignalSourceSizeRule } from '@signals/db'

type Db = Kysely<Database>

/** A source the trader can see: their own live sources and every live operator source, with their subscription. */
export interface VisibleSource {
  source: SignalSourceRow
  subscription: { sizeRule: SignalSourceSizeRule; multiplier: string | null } | null
}

export async function listVisibleSources(db: Db, userId: string): Promise<VisibleSource[]> {
  const rows = await db
    .selectFrom('signal_sources as s')
    .leftJoin('signal_source_subscriptions as sub', (join) => join.onRef('sub.source_id', '=', 's.id').on('sub.user_id', '=', userId))
    .selectAll('s')
    .select(['sub.size_rule', 'sub.multiplier'])
    .where('s.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('s.owner_user_id', '=', userId), eb('s.owner_user_id', 'is', null)]))
    .orderBy('s.created_at')
    .orderBy('s.id')
    .execute()
  return rows.map(({ size_rule, multiplier, ...source }) => ({
    source,
    subscription: size_rule === null ? null : { sizeRule: size_rule, multiplier },
  }))
}

/** A live source the trader may subscribe to: their own, or an operator source. */
export async function findSubscribableSource(db: Db, userId: string, id: string): Promise<SignalSourceRow | undefined> {
  return db
    .selectFrom('signal_sources')
    .selectAll()
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('owner_user_id', '=', userId), eb('owner_user_id', 'is', null)]))
    .executeTakeFirst()
}

export async function insertSource(db: Db, source: { ownerUserId: string | null; name: string; tokenHash: string }): Promise<SignalSourceRow> {
  return db
    .insertInto('signal_sources')
    .values({ owner_user_id: source.ownerUserId, name: source.name, token_hash: source.tokenHash })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** `owner` null addresses an operator source. Only a live source rotates; the old hash stops working at once. */
export async function rotateSource(db: Db, owner: string | null, id: string, tokenHash: string): Promise<SignalSourceRow | undefined> {
  return db
    .updateTable('signal_sources')
    .set({ token_hash: tokenHash, rotated_at: new Date() })
    .where('id', '=', id)
    .where('owner_user_id', owner === null ? 'is' : '=', owner)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

/** Deleting a source revokes it: the row stays so the records made from it keep naming it. */
export async function revokeSource(db: Db, owner: string | null, id: string): Promise<SignalSourceRow | undefined> {
  return db
    .updateTable('signal_sources')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('owner_user_id', owner === null ? 'is' : '=', owner)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

/** The trader's subscription to a source: set (one statement), or removed when `rule` is null. */
export async function replaceSubscription(db: Db, sourceId: string, userId: string, rule: { sizeRule: SignalSourceSizeRule; multiplier: number | null } | null): Promise<void> {
  if (rule === null) {
    await db.deleteFrom('signal_source_subscriptions').where('source_id', '=', sourceId).where('user_id', '=', userId).execute()
    return
  }
  await db
    .insertInto('signal_source_subscriptions')
    .values({ source_id: sourceId, user_id: userId, size_rule: rule.sizeRule, multiplier: rule.multiplier })
    .onConflict((conflict) => conflict.columns(['source_id', 'user_id']).doUpdateSet({ size_rule: rule.sizeRule, multiplier: rule.multiplier }))
    .execute()
}

/** Whether the trader receives the spec route's alerts (the default operator source): no opt-out row. */
export async function isSubscribedToDefault(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('default_source_opt_outs').select('user_id').where('user_id', '=', userId).executeTakeFirst()
  return row === undefined
}

/** Subscribes the trader to the default source again (removes the opt-out), or opts them out; idempotent. */
export async function setDefaultSubscription(db: Db, userId: string, subscribed: boolean): Promise<void> {
  if (subscribed) {
    await db.deleteFrom('default_source_opt_outs').where('user_id', '=', userId).execute()
    return
  }
  await db.insertInto('default_source_opt_outs').values({ user_id: userId }).onConflict((conflict) => conflict.column('user_id').doNothing()).execute()
}
