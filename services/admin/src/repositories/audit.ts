import type { AdminAuditEntry, Database, Kysely } from '@signals/db'

export type AuditAction = 'approve' | 'revoke' | 'ban' | 'unban' | 'replay'

export interface AuditRecord {
  actorUserId: string
  action: AuditAction
  /** A user id (approve, revoke), an e-mail (ban, unban) or an intake id (replay). */
  target: string
  reason?: string | null
}

/** The admin service is the one writer of the audit log; each entry is written in the action's transaction. */
export async function recordAudit(db: Kysely<Database>, record: AuditRecord): Promise<void> {
  await db
    .insertInto('admin_audit_log')
    .values({ actor_user_id: record.actorUserId, action: record.action, target: record.target, reason: record.reason ?? null })
    .execute()
}

export async function listAudit(db: Kysely<Database>, query: { action?: AuditAction; actor?: string; offset: number; limit: number }): Promise<{ entries: AdminAuditEntry[]; total: number }> {
  let base = db.selectFrom('admin_audit_log')
  if (query.action) base = base.where('action', '=', query.action)
  if (query.actor) base = base.where('actor_user_id', '=', query.actor)
  const [entries, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').offset(query.offset).limit(query.limit).execute(),
    base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ])
  return { entries, total: Number(count.total) }
}
