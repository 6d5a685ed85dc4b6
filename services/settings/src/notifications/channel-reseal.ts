import type { Database, Kysely } from '@signals/db'
import type { CredentialsCipher } from '@signals/secrets'
import { openChannelSecret, sealChannelSecret } from './channel-secret.ts'

export interface ChannelResealReport {
  examined: number
  resealed: number
  current: number
  /** Channels no configured key opens: left as they are (the trader sees it on the channel). */
  unreadable: { channelId: string; keyId: string }[]
}

/**
 * Moves every notification channel's secret to the current key (run by `pnpm credentials:reseal` with
 * the broker credentials), so a previous key can be retired. An update applies only if the row still
 * holds what was read: a channel saved in the meantime is already sealed afresh.
 */
export async function resealChannelSecrets(db: Kysely<Database>, cipher: CredentialsCipher): Promise<ChannelResealReport> {
  const report: ChannelResealReport = { examined: 0, resealed: 0, current: 0, unreadable: [] }
  const rows = await db.selectFrom('notification_channels').selectAll().orderBy('id').execute()
  for (const row of rows) {
    report.examined++
    if (!cipher.needsRotation({ keyId: row.key_id })) {
      report.current++
      continue
    }
    let secret: string | null
    try {
      secret = openChannelSecret(cipher, row)
    } catch {
      report.unreadable.push({ channelId: row.id, keyId: row.key_id })
      continue
    }
    const fresh = sealChannelSecret(cipher, { userId: row.user_id, id: row.id, kind: row.kind }, secret)
    const result = await db
      .updateTable('notification_channels')
      .set({ key_id: fresh.keyId, secret_iv: fresh.iv, secret_tag: fresh.tag, secret_ciphertext: fresh.ciphertext })
      .where('id', '=', row.id)
      .where('key_id', '=', row.key_id)
      .where('secret_iv', '=', row.secret_iv)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 1) report.resealed++
    else report.current++
  }
  return report
}
