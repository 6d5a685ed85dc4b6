import { createHash } from 'node:crypto'

/** What the sign-in form collects: the whole of a development account. */
export interface DevProfile {
  email: string
  name: string
  emailVerified: boolean
}

export interface StandardClaims {
  sub: string
  email: string
  email_verified: boolean
  name: string
  picture: string
}

/** `sub` is stable per e-mail, case-insensitively, like a real provider's user id is stable per account. */
export function subjectFor(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32)
}

/**
 * In-memory accounts. A profile is kept per sign-in (per grant) as well as per subject, so two sign-ins for
 * the same e-mail with different answers (say, verified and unverified) each get the claims they asked for,
 * even when their token requests interleave.
 */
export class AccountStore {
  readonly #bySubject = new Map<string, DevProfile>()
  readonly #byGrant = new Map<string, { profile: DevProfile; at: number }>()

  /** `grantLifetimeMs`: how long a grant's profile is kept (the provider's Grant lifetime). */
  constructor(
    private readonly pictureUrl: (sub: string) => string,
    private readonly grantLifetimeMs = 86_400_000,
  ) {}

  remember(profile: DevProfile, grantId: string, now = Date.now()): void {
    this.#bySubject.set(subjectFor(profile.email), profile)
    // Insertion order is age order: drop expired grants from the front.
    for (const [id, entry] of this.#byGrant) {
      if (now - entry.at < this.grantLifetimeMs) break
      this.#byGrant.delete(id)
    }
    this.#byGrant.set(grantId, { profile, at: now })
  }

  profileOf(sub: string, grantId?: string): DevProfile | undefined {
    return (grantId === undefined ? undefined : this.#byGrant.get(grantId)?.profile) ?? this.#bySubject.get(sub)
  }

  claimsOf(sub: string, grantId?: string): StandardClaims | undefined {
    const profile = this.profileOf(sub, grantId)
    if (profile === undefined) return undefined
    return {
      sub,
      email: profile.email,
      email_verified: profile.emailVerified,
      name: profile.name,
      picture: this.pictureUrl(sub),
    }
  }
}
