import { listOf } from './variables.ts'

/** ADMIN_EMAIL as the set auth and admin compare against: lower-cased, blanks dropped. */
export function adminEmailSet(adminEmail: string): ReadonlySet<string> {
  return new Set(listOf(adminEmail).map((email) => email.toLowerCase()))
}
