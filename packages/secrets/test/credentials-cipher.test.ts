import t from 'tap'
import { randomBytes } from 'node:crypto'
import { CredentialsCipher, SecretKeyError } from '../src/index.ts'

const key = () => randomBytes(32).toString('base64')

t.test('sealed secrets open with the same key and owner, and hide the plaintext', async (t) => {
  const cipher = CredentialsCipher.fromConfig('k1', key())
  const sealed = cipher.seal({ password: 'hunter2', sec: 'api-secret' }, 'user-1')
  t.equal(sealed.keyId, 'k1')
  t.equal(sealed.iv.length, 12)
  t.equal(sealed.tag.length, 16)
  t.notOk(sealed.ciphertext.toString('utf8').includes('hunter2'))
  t.same(cipher.open(sealed, 'user-1'), { password: 'hunter2', sec: 'api-secret' })
  t.not(cipher.seal({ a: 1 }, 'u').iv.toString('hex'), cipher.seal({ a: 1 }, 'u').iv.toString('hex'), 'fresh IV each time')
})

t.test("another user's row, a tampered byte or an unknown key does not open", async (t) => {
  const cipher = CredentialsCipher.fromConfig('k1', key())
  const sealed = cipher.seal({ password: 'p' }, 'user-1')
  t.throws(() => cipher.open(sealed, 'user-2'), SecretKeyError)
  const tampered = { ...sealed, ciphertext: Buffer.from(sealed.ciphertext) }
  tampered.ciphertext[0] = (tampered.ciphertext[0] as number) ^ 1
  t.throws(() => cipher.open(tampered, 'user-1'), SecretKeyError)
  t.throws(() => cipher.open({ ...sealed, keyId: 'k9' }, 'user-1'), /not configured/)
})

t.test('keys rotate: old rows open with the previous key, new rows use the current one', async (t) => {
  const oldKey = key()
  const before = CredentialsCipher.fromConfig('k1', oldKey)
  const sealed = before.seal({ password: 'p' }, 'u')
  const after = CredentialsCipher.fromConfig('k2', key(), `k1:${oldKey}`)
  t.same(after.open(sealed, 'u'), { password: 'p' })
  t.ok(after.needsRotation(sealed))
  t.equal(after.seal({ password: 'p' }, 'u').keyId, 'k2')
})

t.test('a key of the wrong size is refused', async (t) => {
  t.throws(() => CredentialsCipher.fromConfig('k1', Buffer.alloc(16).toString('base64')), /32 bytes/)
  t.throws(() => CredentialsCipher.fromConfig('k1', key(), 'nocolon'), /id:base64/)
})
