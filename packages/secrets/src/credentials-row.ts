import type { CredentialsCipher, SealedSecret } from './credentials-cipher.ts'
import { credentialsContext, type CredentialsContext, type CredentialsOwner } from './credentials-context.ts'

/** The columns of a stored broker-credentials row that hold its sealed part and what it is bound to. */
export interface SealedCredentialsRow {
  user_id: string
  broker: string
  environment: string
  account_id: string
  key_id: string
  secret_iv: Buffer
  secret_tag: Buffer
  secret_ciphertext: Buffer
}

/** The sealed part of a row, as the cipher takes it. */
export function sealedSecretOf(row: SealedCredentialsRow): SealedSecret {
  return { keyId: row.key_id, iv: row.secret_iv, tag: row.secret_tag, ciphertext: row.secret_ciphertext }
}

/** The binding a row's secret was sealed under: its owner, broker, environment and account. */
export function credentialsContextOf(row: SealedCredentialsRow): CredentialsContext {
  return credentialsContext({ userId: row.user_id, broker: row.broker, environment: row.environment, accountId: row.account_id })
}

/** Seals a credentials secret for the row it will be stored in (settings, on save). */
export function sealCredentials(cipher: CredentialsCipher, owner: CredentialsOwner, secret: Record<string, unknown>): SealedSecret {
  return cipher.seal(secret, credentialsContext(owner))
}

/** Opens a stored row's secret (throws SecretKeyError when its key is gone or its binding no longer holds). */
export function openCredentialsRow(cipher: CredentialsCipher, row: SealedCredentialsRow): Record<string, unknown> {
  return cipher.open(sealedSecretOf(row), credentialsContextOf(row))
}
