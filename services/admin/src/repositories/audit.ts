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

/** An audit entry with the e-mails of the people it names (null where the user row is gone or none applies). */
export type AuditEntryWithEmails = AdminAuditEntry & { actor_email: string | null; target_email: string | null }

/** Actions whose target is a user id (the others name an e-mail or an intake id). */
const USER_TARGETS = ['approve', 'revoke'] as const

/**
 * The audit log, newest first, one page (`beforeId`: only older entries). `actor` is the acting
 * administrator's user id or e-mail (case-insensitive).
 */
export async function listAudit(db: Kysely<Database>, query: { action?: AuditAction; actor?: string; limit: number; beforeId?: number }): Promise<AuditEntryWithEmails[]> {
  let select = db
    .selectFrom('admin_audit_log as audit')
    .leftJoin('users as actor', 'actor.user_id', 'audit.actor_user_id')
    .leftJoin('users as subject', (join) => join.onRef('subject.user_id', '=', 'audit.target').on('audit.action', 'in', USER_TARGETS))
    .selectAll('audit')
    .select(['actor.email as actor_email', (eb) => eb.fn.coalesce('subject.email', eb.case().when('audit.action', 'in', ['ban', 'unban']).then(eb.ref('audit.target')).end()).as('target_email')])
  if (query.action) select = select.where('audit.action', '=', query.action)
  const actor = query.actor
  if (actor) select = select.where((eb) => (actor.includes('@') ? eb(eb.fn('lower', ['actor.email']), '=', actor.toLowerCase()) : eb('audit.actor_user_id', '=', actor)))
  if (query.beforeId !== undefined) select = select.where('audit.id', '<', query.beforeId)
  return select.orderBy('audit.id', 'desc').limit(query.limit).execute()
}
