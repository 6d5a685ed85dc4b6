import { fieldOf } from '../parsing/fields.ts'
import { userNamedInBrokenJson } from './user-in-broken-json.ts'

/** A `Name: value` or `name=value` line; bounded so a long body costs one linear pass. */
const LABEL_LINE = /^[ \t]*([^\r\n:="{}]{1,64}?)[ \t]*[:=][ \t]*([^\r\n]{1,255})$/gm

const firstString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined

/**
 * The user a webhook refused before its payload was read (429 rate limited, 403 source not allowed) names,
 * for the intake log only: a `user_id` query parameter, a JSON `"user_id": "..."` pair or a `User ID: ...`
 * line, under any name the parser accepts. Never routed by; it lets the trader it names see on their
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
  const inJson = userNamedInBrokenJson(text)
  if (inJson !== undefined) return inJson
  for (const [, name = '', value = ''] of text.matchAll(LABEL_LINE)) {
    const user = fieldOf(name.trim()) === 'userId' ? value.trim() : ''
    if (user !== '') return user
  }
  return undefined
}
