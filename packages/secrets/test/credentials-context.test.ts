import t from 'tap'
import { randomBytes } from 'node:crypto'
import { CredentialsCipher, SecretKeyError, credentialsContext } from '../src/index.ts'

// Issue 15 point 8: the additional data binds user, broker, environment and account.
const key = () => randomBytes(32).toString('base64')
const owner = { userId: 'user-1', broker: 'tradovate', environment: 'demo', accountId: 'DEMO-1' }

t.test('a row edited in the database (environment, broker, account or owner) does not open', async (t) => {
  const cipher = CredentialsCipher.fromConfig('k1', key())
  const sealed = cipher.seal({ password: 'p' }, credentialsContext(owner))
  t.same(cipher.open(sealed, credentialsContext(owner)), { password: 'p' })
  for (const change of [{ environment: 'live' }, { broker: 'paper' }, { accountId: 'LIVE-9' }, { userId: 'user-2' }]) {
    t.throws(() => cipher.open(sealed, credentialsContext({ ...owner, ...change })), SecretKeyError, `changed ${Object.keys(change)[0]}`)
  }
})

t.test('fields cannot be shifted from one into another', async (t) => {
  t.not(credentialsContext({ ...owner, userId: 'a', broker: 'b,c' }).aad, credentialsContext({ ...owner, userId: 'a,b', broker: 'c' }).aad)
})

t.test('rows sealed with the user id alone (before the binding) still open, and say they need re-sealing', async (t) => {
  const cipher = CredentialsCipher.fromConfig('k1', key())
  const legacy = cipher.seal({ password: 'p' }, 'user-1')
  const opened = cipher.openDetailed(legacy, credentialsContext(owner))
  t.same(opened.secret, { password: 'p' })
  t.equal(opened.legacyBinding, true)
  t.ok(cipher.needsReseal(legacy, opened))
  const current = cipher.seal({ password: 'p' }, credentialsContext(owner))
  const reopened = cipher.openDetailed(current, credentialsContext(owner))
  t.equal(reopened.legacyBinding, false)
  t.notOk(cipher.needsReseal(current, reopened))
  t.throws(() => cipher.open(legacy, credentialsContext({ ...owner, userId: 'user-2' })), SecretKeyError, 'the legacy binding still names the owner')
})

t.test('once its key is retired, a saved legacy row opens nowhere (the downgrade closes with the rotation)', async (t) => {
  const oldKey = key()
  const legacy = CredentialsCipher.fromConfig('k1', oldKey).seal({ password: 'p' }, 'user-1')
  const retired = CredentialsCipher.fromConfig('k2', key())
  t.throws(() => retired.open(legacy, credentialsContext(owner)), /not configured/)
})
