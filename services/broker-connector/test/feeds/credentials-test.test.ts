import t from 'tap'
import { CREDENTIALS_TEST_SUBJECT } from '@signals/contracts'
import { CredentialsCipher, sealCredentials } from '@signals/secrets'
import type { Config } from '../../src/config.ts'
import { tradingApp, paperBroker } from '../trading-helper.ts'
import { PASSWORD } from './feed-helper.ts'

// Issue 22 (docs/decisions/accounts.md, stage 3a): `POST /api/accounts` with a new login asks the connector to
// try it before anything is stored. The login crosses the bus sealed for the asking user and the account it
// names, as it would be stored; the connector opens it with its own keys and tries it at the (paper) broker.
const encoder = new TextEncoder()
const decoder = new TextDecoder()

function sealedLogin(config: Config, userId: string, username: string, password: string, accountId: string) {
  const cipher = CredentialsCipher.fromConfig(config.CREDENTIALS_KEY_ID, config.CREDENTIALS_KEY, config.CREDENTIALS_PREVIOUS_KEYS)
  const sealed = sealCredentials(cipher, { userId, broker: 'paper', environment: 'demo', accountId }, { username, password, appId: 'signals', appVersion: '1.0', cid: 8, sec: 'app-secret-value', deviceId: null })
  return { broker: 'paper', environment: 'demo', accountId, keyId: sealed.keyId, iv: sealed.iv.toString('base64'), tag: sealed.tag.toString('base64'), ciphertext: sealed.ciphertext.toString('base64') }
}

t.test('a sealed login not stored yet is tried at the broker, in its words; it opens only for the user it was sealed for', async (t) => {
  const broker = await paperBroker(t)
  const { app, config } = await tradingApp(t, broker)
  const ask = async (request: object) => {
    const reply = await app.bus.nc.request(app.bus.subject(CREDENTIALS_TEST_SUBJECT), encoder.encode(JSON.stringify(request)), { timeout: 10_000 })
    return JSON.parse(decoder.decode(reply.data)) as unknown
  }

  t.match(await ask({ version: 1, userId: 'new-1', login: sealedLogin(config, 'new-1', 'trader1', PASSWORD, 'DEMO9001') }), { version: 1, ok: true, kind: null, detail: 'The broker accepted the login: account DEMO9001.' }, 'nothing stored, the login tried as given')
  t.match(await ask({ version: 1, userId: 'new-1', login: sealedLogin(config, 'new-1', 'trader1', 'wrong-password', 'DEMO9001') }), { ok: false, kind: 'credentials_refused', detail: /^The broker refused the login: / })
  t.match(await ask({ version: 1, userId: 'new-1', login: sealedLogin(config, 'new-1', 'trader1', PASSWORD, 'DEMO4242') }), { ok: false, kind: 'account_not_found', detail: /^The broker accepted the login but not the account: / })
  t.match(
    await ask({ version: 1, userId: 'someone-else', login: sealedLogin(config, 'new-1', 'trader1', PASSWORD, 'DEMO9001') }),
    { ok: false, kind: 'unreadable', detail: /^The given credentials could not be used/ },
    "a login sealed for another user does not open (the user is part of the seal's binding)",
  )
  t.match(await ask({ version: 1, userId: 'new-1' }), { ok: false, kind: 'no_credentials' }, 'without a login, the stored one as before')
})
