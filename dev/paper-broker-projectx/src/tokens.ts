import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

const base64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url')

/**
 * Session tokens as ProjectX issues them: a JWT (HS256, signed with a key made at start) naming the user,
 * valid `ttlMs` (ProjectX: 24 h). `Auth/validate` answers a fresh one for a token still valid.
 */
export class SessionTokens {
  readonly #key = randomBytes(32)

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => Date,
  ) {}

  issue(userName: string): string {
    const issuedAt = Math.floor(this.now().getTime() / 1000)
    const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
    const payload = base64url(JSON.stringify({ sub: userName, iat: issuedAt, exp: issuedAt + Math.ceil(this.ttlMs / 1000), jti: randomBytes(8).toString('hex') }))
    return `${header}.${payload}.${this.#sign(`${header}.${payload}`)}`
  }

  /** The user name of a token this broker issued that has not expired; null otherwise. */
  userOf(token: string): string | null {
    const [header, payload, signature] = token.split('.')
    if (!header || !payload || !signature) return null
    const expected = Buffer.from(this.#sign(`${header}.${payload}`))
    const given = Buffer.from(signature)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown; exp?: unknown }
      if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return null
      return claims.exp * 1000 > this.now().getTime() ? claims.sub : null
    } catch {
      return null
    }
  }

  #sign(text: string): string {
    return createHmac('sha256', this.#key).update(text).digest('base64url')
  }
}
