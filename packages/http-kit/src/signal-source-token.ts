import { createHash, randomBytes } from 'node:crypto'

/**
 * A signal source's URL token (issue 22): 32 random bytes, base64url (43 characters), shown once when the
 * source is made or rotated. Only its hash is stored (Postgres, and the key of the SIGNAL_SOURCES bucket).
 */
export function newSignalSourceToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, tokenHash: signalSourceTokenHash(token) }
}

/** SHA-256 of the token, hex: looked up, never compared character by character. */
export function signalSourceTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}
