// The administrator's actions on a user, written once for the home page's user list and the console:
// approve, revoke (asked first), ban (asked first, with a reason), lift a ban. Each answers the success
// sentence, or null when the administrator cancelled.
import { api } from './api.ts'

export interface AdminUser {
  userId: string
  email: string | null
}

const who = (user: { email: string | null; userId?: string }) => user.email ?? user.userId ?? 'the user'

export async function approveUser(user: AdminUser): Promise<string> {
  await api('POST /api/admin/users/:userId/approve', { params: { userId: user.userId } })
  return `${who(user)} approved.`
}

export async function revokeUser(user: AdminUser): Promise<string | null> {
  if (!window.confirm(`Revoke the approval of ${who(user)}? They wait for approval again and their live trading is switched off.`)) return null
  await api('POST /api/admin/users/:userId/revoke', { params: { userId: user.userId } })
  return `${who(user)} revoked: pending approval again.`
}

/** Bans an e-mail; `reason` as given (a form's field), or asked for when undefined. */
export async function banEmail(email: string, reason?: string): Promise<string | null> {
  let given = reason
  if (given === undefined) {
    const typed = window.prompt(`Ban ${email}? Their sessions end at once and their live trading is switched off. Reason (shown to them at sign-in):`, '')
    if (typed === null) return null
    given = typed
  } else if (!window.confirm(`Ban ${email}? Their sessions end at once and their live trading is switched off.`)) {
    return null
  }
  await api('POST /api/admin/bans', { body: { email, reason: given.trim() === '' ? null : given.trim() } })
  return `${email} banned.`
}

export async function liftBan(email: string): Promise<string> {
  await api('DELETE /api/admin/bans/:email', { params: { email } })
  return `Ban of ${email} lifted.`
}
