import type { BrokerCredentialsRow, Database, Kysely } from '@signals/db'
import { SecretKeyError, credentialsContextOf, sealedSecretOf, type CredentialsCipher } from '@signals/secrets'

export interface ResealReport {
  examined: number
  resealed: number
  /** Already on the current key and binding. */
  current: number
  /** Rows no configured key opens (or whose data was altered): left as they are, for the operator. */
  unreadable: { userId: string; keyId: string }[]
}

/**
 * Moves every broker credentials row to the current key and to the full binding (user, broker,
 * environment, account), so previous keys can be retired (`pnpm credentials:reseal`). Rows are read in
 * batches by user id; each update applies only if the row still holds what was read (a credentials save in
 * the meantime has already sealed it afresh). Running it again changes nothing.
 */
export async function resealCredentials(db: Kysely<Database>, cipher: CredentialsCipher, options: { batchSize?: number } = {}): Promise<ResealReport> {
  const report: ResealReport = { examined: 0, resealed: 0, current: 0, unreadable: [] }
  const batchSize = options.batchSize ?? 500
  let after = ''
  for (;;) {
    const rows = await db.selectFrom('broker_credentials').selectAll().where('user_id', '>', after).orderBy('user_id').limit(batchSize).execute()
    for (const row of rows) await resealRow(db, cipher, row, report)
    if (rows.length < batchSize) return report
    after = rows.at(-1)?.user_id ?? after
  }
}

async function resealRow(db: Kysely<Database>, cipher: CredentialsCipher, row: BrokerCredentialsRow, report: ResealReport): Promise<void> {
  report.examined++
  const sealed = sealedSecretOf(row)
  let opened: ReturnType<CredentialsCipher['openDetailed']>
  try {
    opened = cipher.openDetailed(sealed, credentialsContextOf(row))
  } catch (error) {
    if (!(error instanceof SecretKeyError)) throw error
    report.unreadable.push({ userId: row.user_id, keyId: row.key_id })
    return
  }
  if (!cipher.needsReseal(sealed, opened)) {
    report.current++
    return
  }
  const fresh = cipher.seal(opened.secret, credentialsContextOf(row))
  const result = await db
    .updateTable('broker_credentials')
    .set({ key_id: fresh.keyId, secret_iv: fresh.iv, secret_tag: fresh.tag, secret_ciphertext: fresh.ciphertext })
    .where('user_id', '=', row.user_id)
    .where('key_id', '=', row.key_id)
    .where('secret_iv', '=', row.secret_iv)
    .where('broker', '=', row.broker)
    .where('environment', '=', row.environment)
    .where('account_id', '=', row.account_id)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) === 1) report.resealed++
  else report.current++ // saved afresh in the meantime, under the current key and binding
}
