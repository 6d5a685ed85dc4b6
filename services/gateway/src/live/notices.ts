import { UserActivityV1, contract, type UserActivity } from '@signals/contracts'

/** The contract every live notice holds to, published and received through @signals/bus. */
export const noticeContract = contract(UserActivityV1)

/** The user id a namespaced `…activity.user.<base64url id>` subject is for (null if it is not one). */
export function userIdOfSubject(subject: string): string | null {
  const token = subject.slice(subject.lastIndexOf('.') + 1)
  if (token === '' || !/^[A-Za-z0-9_-]+$/.test(token)) return null
  return Buffer.from(token, 'base64url').toString('utf8')
}

/** A "live-trading status changed" notice. */
export function statusNotice(userId: string, at = new Date()): UserActivity {
  return { version: 1, userId, kind: 'status', id: null, at: at.toISOString() }
}
