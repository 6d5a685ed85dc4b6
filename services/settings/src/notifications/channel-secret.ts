import type { CredentialsCipher, SealedSecret } from '@signals/secrets'
import type { NotificationChannelRow } from '@signals/db'

/**
 * The AES-GCM additional data of one channel's secret: user, channel and kind, so a sealed secret copied
 * onto another row (or a row whose kind was changed) does not open.
 */
const contextOf = (channel: { userId: string; id: string; kind: string }) =>
  `signals-notification-channel/v1:${JSON.stringify([channel.userId, channel.id, channel.kind])}`

export function sealChannelSecret(cipher: CredentialsCipher, channel: { userId: string; id: string; kind: string }, secret: string | null): SealedSecret {
  return cipher.seal({ secret }, contextOf(channel))
}

/** The channel's secret (null: none stored, as for SMTP without a password). Throws when it does not open. */
export function openChannelSecret(cipher: CredentialsCipher, row: NotificationChannelRow): string | null {
  const opened = cipher.open(
    { keyId: row.key_id, iv: row.secret_iv, tag: row.secret_tag, ciphertext: row.secret_ciphertext },
    contextOf({ userId: row.user_id, id: row.id, kind: row.kind }),
  )
  return typeof opened.secret === 'string' ? opened.secret : null
}

/** The secret, or undefined when no configured key opens it (the caller says so rather than fail). */
export function readableSecret(cipher: CredentialsCipher, row: NotificationChannelRow): string | null | undefined {
  try {
    return openChannelSecret(cipher, row)
  } catch {
    return undefined
  }
}
