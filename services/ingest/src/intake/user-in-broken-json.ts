import { fieldOf } from '../parsing/fields.ts'

/** A `"name": "text"` pair as written, escapes kept; bounded so a long body costs one linear pass. */
const STRING_PAIR = /"((?:[^"\\\r\n]|\\.){1,64})"\s*:\s*"((?:[^"\\\r\n]|\\.){1,255})"/g

/**
 * The user a body that looks like JSON but does not parse names (`"user_id": "u-123"` written before or
 * after the break), for the intake log only: the webhook is refused as malformed JSON either way and never
 * routed by this, but the trader it names can read why on their Webhooks page (issue 25, item 5). Anyone
 * may name anyone in a payload, as with a body that parses: the entry shows what was refused in that name.
 */
export function userNamedInBrokenJson(text: string): string | undefined {
  for (const [, name = '', value = ''] of text.matchAll(STRING_PAIR)) {
    if (fieldOf(name) !== 'userId') continue
    try {
      const user = JSON.parse(`"${value}"`) as string
      if (user.trim() !== '') return user.trim()
    } catch {
      // An escape JSON does not know: not a user id that can be read.
    }
  }
  return undefined
}
