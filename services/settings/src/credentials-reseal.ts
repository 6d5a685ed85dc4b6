import type { BrokerLoginRow, Database, Kysely } from '@signals/db'
import { SecretKeyError, credentialsContextOf, sealedSecretOf, type CredentialsCipher, type SealedCredentialsRow } from '@signals/secrets'

export interface ResealReport {
  examined: number
  resealed: number
  /** Already on the current key and binding. */
  current: number
  /** Logins no configured key opens (or whose data was altered): left as they are, for the operator. */
  unreadable: { userId: string; loginId: string; keyId: string }[]
}

/** A login as the cipher sees it: sealed for its user, broker, environment and the account it was saved for. */
const sealedRowOf = (login: BrokerLoginRow): SealedCredentialsRow => ({ ...login, account_id: login.bound_account_ref })

/**
 * Moves every broker login (each account's, the primary's included: docs/decisions/accounts.md) to the
 * current key and to the full binding (user, broker, environment, account), so previous keys can be retired
 * (`pnpm credentials:reseal`). Logins are read in batches by id; each update applies only if the login still
 * holds what was read (a save in the meantime has already sealed it afresh). Running it again changes nothing.
 * The spec's `broker_credentials` row follows the primary's login (a trigger).
 */
export async function resealCredentials(db: Kysely<Database>, cipher: CredentialsCipher, options: { batchSize?: number } = {}): Promise<ResealReport> {
  const report: ResealReport = { examined: 0, resealed: 0, current: 0, unreadable: [] }
  const batchSize = options.batchSize ?? 500
  let after: string | undefined
  for (;;) {
    const query = db.selectFrom('broker_logins').selectAll().orderBy('id').limit(batchSize)
    const rows = await (after === undefined ? query : query.where('id', '>', after)).execute()
    for (const row of rows) await resealLogin(db, cipher, row, report)
    if (rows.length < batchSize) return report
    after = rows.at(-1)?.id ?? after
  }
}

async function resealLogin(db: Kysely<Database>, cipher: CredentialsCipher, login: BrokerLoginRow, report: ResealReport): Promise<void> {
  report.examined++
  const row = sealedRowOf(login)
  const sealed = sealedSecretOf(row)
  let opened: ReturnType<CredentialsCipher['openDetailed']>
  try {
    opened = cipher.openDetailed(sealed, credentialsContextOf(row))
  } catch (error) {
    if (!(error instanceof SecretKeyError)) throw error
    report.unreadable.push({ userId: login.user_id, loginId: login.id, keyId: login.key_id })
    return
  }
  if (!cipher.needsReseal(sealed, opened)) {
    report.current++
    return
  }
  const fresh = cipher.seal(opened.secret, credentialsContextOf(row))
  const result = await db
    .updateTable('broker_logins')
    .set({ key_id: fresh.keyId, secret_iv: fresh.iv, secret_tag: fresh.tag, secret_ciphertext: fresh.ciphertext })
    .where('id', '=', login.id)
    .where('key_id', '=', login.key_id)
    .where('secret_iv', '=', login.secret_iv)
    .where('broker', '=', login.broker)
    .where('environment', '=', login.environment)
    .where('bound_account_ref', '=', login.bound_account_ref)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) === 1) report.resealed++
  else report.current++ // saved afresh in the meantime (under the current key and binding), or removed
}
