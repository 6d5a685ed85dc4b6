import type { UserActivity } from '@signals/contracts'

const encoder = new TextEncoder()

/** The user id a namespaced `…activity.user.<base64url id>` subject is for (null if it is not one). */
export function userIdOfSubject(subject: string): string | null {
  const token = subject.slice(subject.lastIndexOf('.') + 1)
  if (token === '' || !/^[A-Za-z0-9_-]+$/.test(token)) return null
  return Buffer.from(token, 'base64url').toString('utf8')
}

/** A "live-trading status changed" notice, encoded for the bus. */
export function statusNotice(userId: string, at = new Date()): Uint8Array {
  const notice: UserActivity = { version: 1, userId, kind: 'status', id: null, at: at.toISOString() }
  return encoder.encode(JSON.stringify(notice))
}

/** Whether a notice's text is a status notice (parsed: the text comes from the bus, not from a browser). */
export function isStatusNotice(text: string): boolean {
  try {
    return (JSON.parse(text) as { kind?: unknown }).kind === 'status'
  } catch {
    return false
  }
}
