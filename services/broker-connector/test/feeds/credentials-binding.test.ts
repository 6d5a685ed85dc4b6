import t from 'tap'
import { openBucket } from '@signals/bus'
import { Buckets, feedStatusKey, type FeedStatus } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import { CredentialsCipher, credentialsContext } from '@signals/secrets'
import { startPaperBroker } from '@signals/dev-paper-broker'
import { storePrimaryLogin } from '@signals/test-support'
import type { Config } from '../../src/config.ts'
import { build, eventually, seedUsers, type App } from '../helper.ts'
import { paperAccountOf } from './feed-helper.ts'

// Issue 15 point 8: a login edited in the database (its environment, or the primary's account) no longer opens,
// so the connector never sends the password to an endpoint its owner did not save it for.
const PASSWORD = 'correct-horse-battery-staple'

async function saveBound(db: Kysely<Database>, config: Config, userId: string, username: string, legacy = false) {
  const cipher = CredentialsCipher.fromConfig(config.CREDENTIALS_KEY_ID, config.CREDENTIALS_KEY, config.CREDENTIALS_PREVIOUS_KEYS)
  const account = paperAccountOf(username)
  const context = legacy ? userId : credentialsContext({ userId, broker: 'paper', environment: 'demo', accountId: account })
  const sealed = cipher.seal({ username, password: PASSWORD, appId: null, appVersion: null, cid: 8, sec: null, deviceId: null }, context)
  await storePrimaryLogin(db, { userId, broker: 'paper', environment: 'demo', accountId: account, sealed })
}

async function statusOf(app: App, userId: string): Promise<FeedStatus | null> {
  const bucket = await openBucket(app.bus, Buckets.feedStatus)
  const entry = await bucket.get(feedStatusKey(userId))
  return entry && entry.operation === 'PUT' ? (entry.json() as FeedStatus) : null
}

t.test('bound credentials log in; an edited row is refused; a row sealed before the binding still logs in', async (t) => {
  const broker = await startPaperBroker({
    accounts: [
      { name: 'trader0', password: PASSWORD, userId: 100, accountId: 9000, accountName: 'DEMO9000' },
      { name: 'trader1', password: PASSWORD, userId: 101, accountId: 9001, accountName: 'DEMO9001' },
      { name: 'trader2', password: PASSWORD, userId: 102, accountId: 9002, accountName: 'DEMO9002' },
    ],
    heartbeatMs: 200,
  })
  t.teardown(() => broker.close())
  const seeded = await build(t, { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl }, { consumers: false, feeds: false })
  await seedUsers(seeded.db, 3, { prefix: 'bind' })
  await saveBound(seeded.db, seeded.config, 'bind-0', 'trader0')
  await saveBound(seeded.db, seeded.config, 'bind-1', 'trader1')
  // Edited in the database: the primary's account and its login's environment.
  await seeded.db.updateTable('broker_accounts').set({ broker_account_ref: 'SOMEONE-ELSES' }).where('user_id', '=', 'bind-1').where('is_primary', '=', true).execute()
  await seeded.db.updateTable('broker_logins').set({ environment: 'live' }).where('user_id', '=', 'bind-1').execute()
  await saveBound(seeded.db, seeded.config, 'bind-2', 'trader2', true)
  const { buildApp } = await import('../../src/app.ts')
  const app = await buildApp(seeded.config, { consumers: false })
  t.teardown(() => app.close())
  await app.ready()

  await eventually(async () => (await statusOf(app, 'bind-0'))?.state === 'connected')
  await eventually(async () => (await statusOf(app, 'bind-1'))?.state === 'error')
  t.match(await statusOf(app, 'bind-1'), { state: 'error', detail: /credentials could not be opened/ })
  await eventually(async () => (await statusOf(app, 'bind-2'))?.state === 'connected')
  t.pass('the legacy row connected (credentials:reseal moves it to the binding)')
})
