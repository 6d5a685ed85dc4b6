import type { AdminAuditEntry, Database, Kysely } from '@signals/db'
import type { AuditAction } from '../schemas/audit.ts'

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

/** The audit log, newest first, one page (`beforeId`: only older entries). */
export async function listAudit(db: Kysely<Database>, query: { action?: AuditAction; actor?: string; limit: number; beforeId?: number }): Promise<AdminAuditEntry[]> {
  let select = db.selectFrom('admin_audit_log').selectAll()
  if (query.action) select = select.where('action', '=', query.action)
  if (query.actor) select = select.where('actor_user_id', '=', query.actor)
  if (query.beforeId !== undefined) select = select.where('id', '<', query.beforeId)
  return select.orderBy('id', 'desc').limit(query.limit).execute()
}
