/** The profile fields sign-in uses (spec: provider user id, e-mail, display name, picture). */
export interface Profile {
  sub: string
  email: string
  emailVerified: boolean
  name: string | null
  picture: string | null
}

const MAX_LENGTH = 255

/** Reads claims (ID token, merged with userinfo when needed) into a Profile, or explains what is missing. */
export function profileFrom(claims: Record<string, unknown>): { ok: true; profile: Profile } | { ok: false; reason: string } {
  const { sub, email, email_verified: emailVerified, name, picture } = claims
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > MAX_LENGTH) return { ok: false, reason: 'no usable subject' }
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email) || email.length > MAX_LENGTH) {
    return { ok: false, reason: 'no usable e-mail' }
  }
  return {
    ok: true,
    profile: {
      sub,
      email,
      // Some providers send the claim as a string.
      emailVerified: emailVerified === true || emailVerified === 'true',
      name: typeof name === 'string' && name.length > 0 ? name.slice(0, MAX_LENGTH) : null,
      picture: typeof picture === 'string' && /^https?:\/\//.test(picture) ? picture : null,
    },
  }
}
