import t from 'tap'
import { randomBytes } from 'node:crypto'
import { CredentialsCipher, SecretKeyError, openCredentialsRow, sealCredentials, type SealedCredentialsRow } from '../src/index.ts'

const owner = { userId: 'user-1', broker: 'tradovate', environment: 'demo', accountId: 'DEMO-1' }

function rowOf(sealed: ReturnType<typeof sealCredentials>, change: Partial<SealedCredentialsRow> = {}): SealedCredentialsRow {
  return {
    user_id: owner.userId, broker: owner.broker, environment: owner.environment, account_id: owner.accountId,
    key_id: sealed.keyId, secret_iv: sealed.iv, secret_tag: sealed.tag, secret_ciphertext: sealed.ciphertext, ...change,
  }
}

t.test('a row sealed by settings opens in the connector; an edited row does not', async (t) => {
  const cipher = CredentialsCipher.fromConfig('k1', randomBytes(32).toString('base64'))
  const sealed = sealCredentials(cipher, owner, { username: 'u', password: 'p' })
  t.same(openCredentialsRow(cipher, rowOf(sealed)), { username: 'u', password: 'p' })
  t.throws(() => openCredentialsRow(cipher, rowOf(sealed, { environment: 'live' })), SecretKeyError)
  t.throws(() => openCredentialsRow(cipher, rowOf(sealed, { account_id: 'LIVE-9' })), SecretKeyError)
})
