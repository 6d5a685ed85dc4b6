import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { CredentialsContext } from './credentials-context.ts'

/** What is stored: which key sealed it, AES-256-GCM IV and tag, and the ciphertext. */
export interface SealedSecret {
  keyId: string
  iv: Buffer
  tag: Buffer
  ciphertext: Buffer
}

export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SecretKeyError'
  }
}

/** Decodes a base64 key and checks it is 32 bytes (AES-256). */
export function parseKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64')
  if (key.length !== 32) throw new SecretKeyError('an AES-256 key must be 32 bytes, base64-encoded')
  return key
}

/**
 * Seals JSON secrets with AES-256-GCM under the current key and opens them with whichever key sealed them,
 * so keys can rotate: seal with the new key, keep old ones for reading until every row is re-sealed.
 * `context` is bound as additional authenticated data: `credentialsContext(...)` (user, broker,
 * environment, account), so a ciphertext copied onto another row, or a row whose clear columns were edited,
 * does not open. A plain string is the binding rows had before (the user id alone): `open` with a
 * `credentialsContext` still accepts such rows, and `openDetailed` says they need re-sealing.
 */
export class CredentialsCipher {
  readonly #keys: ReadonlyMap<string, Buffer>

  constructor(
    readonly currentKeyId: string,
    keys: ReadonlyMap<string, Buffer>,
  ) {
    if (!keys.has(currentKeyId)) throw new SecretKeyError(`no key with id ${currentKeyId}`)
    this.#keys = keys
  }

  /**
   * From configuration: the current key and id, plus `previous` as `id:base64,id:base64` (may be empty).
   */
  static fromConfig(currentKeyId: string, currentKey: string, previous = ''): CredentialsCipher {
    const keys = new Map<string, Buffer>()
    for (const entry of previous.split(',').map((e) => e.trim()).filter(Boolean)) {
      const colon = entry.indexOf(':')
      if (colon <= 0) throw new SecretKeyError('previous keys must be written id:base64')
      keys.set(entry.slice(0, colon), parseKey(entry.slice(colon + 1)))
    }
    keys.set(currentKeyId, parseKey(currentKey))
    return new CredentialsCipher(currentKeyId, keys)
  }

  seal(secret: Record<string, unknown>, context: CredentialsContext | string): SealedSecret {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.#keys.get(this.currentKeyId) as Buffer, iv)
    cipher.setAAD(Buffer.from(typeof context === 'string' ? context : context.aad, 'utf8'))
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(secret), 'utf8'), cipher.final()])
    return { keyId: this.currentKeyId, iv, tag: cipher.getAuthTag(), ciphertext }
  }

  /** The secret, if `sealed` opens under `context` (or, for a row sealed before the binding, its user id). */
  open(sealed: SealedSecret, context: CredentialsContext | string): Record<string, unknown> {
    return this.openDetailed(sealed, context).secret
  }

  /** As `open`, and whether the row carries the old user-id-only binding (so should be re-sealed). */
  openDetailed(sealed: SealedSecret, context: CredentialsContext | string): { secret: Record<string, unknown>; legacyBinding: boolean } {
    const key = this.#keys.get(sealed.keyId)
    if (!key) throw new SecretKeyError(`credentials were sealed with key ${sealed.keyId}, which is not configured`)
    if (typeof context === 'string') return { secret: this.#decrypt(key, sealed, context), legacyBinding: false }
    try {
      return { secret: this.#decrypt(key, sealed, context.aad), legacyBinding: false }
    } catch (error) {
      if (!(error instanceof SecretKeyError)) throw error
      return { secret: this.#decrypt(key, sealed, context.legacyAad), legacyBinding: true }
    }
  }

  #decrypt(key: Buffer, sealed: SealedSecret, aad: string): Record<string, unknown> {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv)
    decipher.setAAD(Buffer.from(aad, 'utf8'))
    decipher.setAuthTag(sealed.tag)
    try {
      const plain = Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8')
      return JSON.parse(plain) as Record<string, unknown>
    } catch {
      throw new SecretKeyError('credentials could not be opened (wrong key, wrong owner or tampered data)')
    }
  }

  /** True when a row should be re-sealed: an older key, or the binding it had before (user id alone). */
  needsReseal(sealed: Pick<SealedSecret, 'keyId'>, opened: { legacyBinding: boolean }): boolean {
    return this.needsRotation(sealed) || opened.legacyBinding
  }

  /** True when the row was sealed with an older key and should be re-sealed. */
  needsRotation(sealed: Pick<SealedSecret, 'keyId'>): boolean {
    return sealed.keyId !== this.currentKeyId
  }
}
