import t from 'tap'
import { CredentialsCipher, credentialsContext } from '@signals/secrets'
import { findPrimaryLogin } from '@signals/db'
import { build } from '../helper.ts'

// Issue 23, item 6: a ProjectX trader saves `broker: "projectx"` with its user name and API key (the
// database takes the name since migration 20261129030000); fields of another broker are refused.

const projectx = { broker: 'projectx', environment: 'demo', accountId: 'PAPERX7000', username: 'topstep.trader', apiKey: 'px-api-key-9f2c4e-unique' }

t.test('PUT accepts ProjectX credentials, seals the API key, and never shows it', async (t) => {
  const { app, config, createUser } = await build(t)
  const headers = await createUser('px')
  const saved = await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: projectx })
  t.equal(saved.statusCode, 200, saved.body)
  t.match(saved.json(), { success: true, credentials: { broker: 'projectx', environment: 'demo', accountId: 'PAPERX7000', usernameMasked: String } })
  t.notOk(saved.body.includes(projectx.apiKey), 'the key is not in the answer')
  const row = await findPrimaryLogin(app.db, 'px')
  if (!row) throw new Error("px's primary account has no login")
  t.equal(row.broker, 'projectx')
  const cipher = CredentialsCipher.fromConfig(config.CREDENTIALS_KEY_ID, config.CREDENTIALS_KEY, config.CREDENTIALS_PREVIOUS_KEYS)
  const opened = cipher.open({ keyId: row.key_id, iv: row.secret_iv, tag: row.secret_tag, ciphertext: row.secret_ciphertext }, credentialsContext({ userId: 'px', broker: 'projectx', environment: 'demo', accountId: 'PAPERX7000' }))
  t.same(opened, { username: 'topstep.trader', apiKey: projectx.apiKey })

  const missing = await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: { ...projectx, apiKey: undefined } })
  t.equal(missing.statusCode, 400)
  t.match(missing.json().error, /apiKey is required for broker projectx/)
  const foreign = await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: { ...projectx, password: 'x-password' } })
  t.equal(foreign.statusCode, 400)
  t.match(foreign.json().error, /password is not a field of broker projectx/)
})
