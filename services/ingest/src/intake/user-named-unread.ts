import { fieldOf } from '../parsing/fields.ts'
import { userNamedInBrokenJson } from './user-in-broken-json.ts'

/** A `Name: value` or `name=value` line; bounded so a long body costs one linear pass. */
const LABEL_LINE = /^[ \t]*([^\r\n:="{}]{1,64}?)[ \t]*[:=][ \t]*([^\r\n]{1,255})$/gm

/**
 * Characters of the text looked at: an alert body is a few hundred; a flood of large refused bodies costs
 * at most this much scanning each (about 0.25 ms at worst on this machine, 5 us for a typical body).
 */
const SCANNED_CHARS = 4096
/** Every name the parser reads as the user (`user`, `userId`, `User ID`...) holds these letters. */
const NAMES_A_USER = /user/i

const firstString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined

/**
 * The user a webhook refused before its payload was read (429 rate limited, 403 source not allowed) names,
 * for the intake log only: a `user_id` query parameter, a JSON `"user_id": "..."` pair or a `User ID: ...`
 * line in the text's first SCANNED_CHARS, under any name the parser accepts. Never routed by; it lets the trader it names see on their
 * Webhooks page that an alert sent for them was refused, and why (issue 22). Anyone may name anyone, as
 * with a payload that is read: the entry shows what was refused in that name, never who sent it.
 */
export function userNamedUnread(text: string, query: unknown): string | undefined {
  if (typeof query === 'object' && query !== null) {
    for (const [name, value] of Object.entries(query)) {
      const user = fieldOf(name) === 'userId' ? firstString(value)?.trim() : undefined
      if (user) return user
    }
  }
  const scanned = text.length > SCANNED_CHARS ? text.slice(0, SCANNED_CHARS) : text
  if (!NAMES_A_USER.test(scanned)) return undefined
  const inJson = userNamedInBrokenJson(scanned)
  if (inJson !== undefined) return inJson
  for (const [, name = '', value = ''] of scanned.matchAll(LABEL_LINE)) {
    const user = fieldOf(name.trim()) === 'userId' ? value.trim() : ''
    if (user !== '') return user
  }
  return undefined
}
