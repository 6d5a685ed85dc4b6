import t from 'tap'
import { randomBytes } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDb, sql, type Database, type Kysely } from '@signals/db'
import { CredentialsCipher, credentialsContext, type SealedSecret } from '@signals/secrets'
import { createTestDatabase, storePrimaryLogin } from '@signals/test-support'
import { resealCredentials } from '../src/credentials-reseal.ts'
import { sealChannelSecret, openChannelSecret } from '../src/notifications/channel-secret.ts'
import { credentialsContextOf as contextOf, sealedSecretOf as sealedOf } from '@signals/secrets'

// Issue 15 point 8: one command moves every broker login to the current key and binding, so old keys can be
// retired: each trader's credentials (their primary account's login) and the logins of additional accounts
// (issue 22). Against the real Postgres.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const key = () => randomBytes(32).toString('base64')
const OLD = key()
const CURRENT = key()
const owner = (userId: string) => ({ userId, broker: 'paper', environment: 'demo', accountId: `ACC-${userId}` })

async function insertRow(db: Kysely<Database>, userId: string, sealed: SealedSecret) {
  await db.insertInto('users').values({ user_id: userId, email: `${userId}@example.com`, approved: true }).execute()
  await storePrimaryLogin(db, { userId, broker: 'paper', environment: 'demo', accountId: `ACC-${userId}`, sealed })
}

/** An additional account of the user under a login of its own, sealed for broker account EVAL2. */
async function insertAdditional(db: Kysely<Database>, userId: string, sealed: SealedSecret) {
  const login = await db
    .insertInto('broker_logins')
    .values({ user_id: userId, broker: 'paper', environment: 'demo', bound_account_ref: 'EVAL2', key_id: sealed.keyId, secret_iv: sealed.iv, secret_tag: sealed.tag, secret_ciphertext: sealed.ciphertext })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.insertInto('broker_accounts').values({ user_id: userId, login_id: login.id, broker_account_ref: 'EVAL2', name: 'Eval 2' }).execute()
}

/** Every login as the cipher opens it (bound to its own account), the additional account's named `<user>+EVAL2`. */
async function logins(db: Kysely<Database>) {
  const rows = await db.selectFrom('broker_logins').selectAll().execute()
  return rows
    .map((row) => ({ ...row, account_id: row.bound_account_ref, name: row.bound_account_ref === 'EVAL2' ? `${row.user_id}+EVAL2` : row.user_id }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

async function seed(db: Kysely<Database>) {
  const old = CredentialsCipher.fromConfig('k0', OLD)
  const current = CredentialsCipher.fromConfig('k1', CURRENT)
  await insertRow(db, 'legacy-old-key', old.seal({ password: 'p0' }, 'legacy-old-key'))
  await insertRow(db, 'bound-old-key', old.seal({ password: 'p1' }, credentialsContext(owner('bound-old-key'))))
  await insertRow(db, 'legacy-current-key', current.seal({ password: 'p2' }, 'legacy-current-key'))
  await insertRow(db, 'up-to-date', current.seal({ password: 'p3' }, credentialsContext(owner('up-to-date'))))
  await insertRow(db, 'lost-key', CredentialsCipher.fromConfig('k9', key()).seal({ password: 'p4' }, 'lost-key'))
  await insertAdditional(db, 'up-to-date', old.seal({ password: 'p5' }, credentialsContext({ ...owner('up-to-date'), accountId: 'EVAL2' })))
  // A notification channel sealed with the old key.
  const channel = { userId: 'up-to-date', id: '6f1c1f5e-8a54-4f6e-9d7a-2b1e0c3d4a5b', kind: 'telegram' }
  const sealed = sealChannelSecret(old, channel, '123:TOKEN')
  await db
    .insertInto('notification_channels')
    .values({ id: channel.id, user_id: channel.userId, kind: 'telegram', name: 'phone', events: ['fill'], settings: JSON.stringify({ chatId: '1' }), key_id: sealed.keyId, secret_iv: sealed.iv, secret_tag: sealed.tag, secret_ciphertext: sealed.ciphertext })
    .execute()
}

t.test('every readable login moves to the current key and binding; unreadable ones are reported, untouched', async (t) => {
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const db = createDb({ connectionString: database.url })
  t.teardown(() => db.destroy())
  await seed(db)
  const upToDate = (await logins(db)).find((r) => r.name === 'up-to-date')
  const lostLogin = (await logins(db)).find((r) => r.name === 'lost-key')?.id

  const cipher = CredentialsCipher.fromConfig('k1', CURRENT, `k0:${OLD}`)
  const report = await resealCredentials(db, cipher, { batchSize: 2 })
  t.same(report, { examined: 6, resealed: 4, current: 1, unreadable: [{ userId: 'lost-key', loginId: lostLogin, keyId: 'k9' }] })

  const retired = CredentialsCipher.fromConfig('k1', CURRENT)
  const rows = await logins(db)
  t.same(rows.map((r) => r.name), ['bound-old-key', 'legacy-current-key', 'legacy-old-key', 'lost-key', 'up-to-date', 'up-to-date+EVAL2'])
  for (const row of rows.filter((r) => r.user_id !== 'lost-key')) {
    t.equal(row.key_id, 'k1', `${row.name} is on the current key`)
    const opened = retired.openDetailed(sealedOf(row), contextOf(row))
    t.equal(opened.legacyBinding, false, `${row.name} carries the full binding`)
    t.match(opened.secret, { password: /^p[0-35]$/ })
  }
  t.equal(rows.find((r) => r.user_id === 'lost-key')?.key_id, 'k9', 'an unreadable login is left as it was')
  const stillUpToDate = rows.find((r) => r.name === 'up-to-date')
  t.same(stillUpToDate?.secret_ciphertext, upToDate?.secret_ciphertext, 'a current login is not rewritten')
  const specRows = await sql<{ user_id: string; key_id: string; secret_ciphertext: Buffer }>`SELECT user_id, key_id, secret_ciphertext FROM broker_credentials ORDER BY user_id`.execute(db)
  t.same(specRows.rows, rows.filter((r) => r.name === r.user_id).map((r) => ({ user_id: r.user_id, key_id: r.key_id, secret_ciphertext: r.secret_ciphertext })), "the spec's per-user rows follow the primaries' logins")

  t.same(await resealCredentials(db, cipher), { examined: 6, resealed: 0, current: 5, unreadable: [{ userId: 'lost-key', loginId: lostLogin, keyId: 'k9' }] }, 'running it again changes nothing')
})

t.test('`pnpm credentials:reseal` runs it from the environment and fails while a row is unreadable', async (t) => {
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const db = createDb({ connectionString: database.url })
  t.teardown(() => db.destroy())
  await seed(db)
  const run = () =>
    spawnSync(process.execPath, ['--import', 'tsx', 'services/settings/src/credentials-reseal-cli.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: database.url, CREDENTIALS_KEY_ID: 'k1', CREDENTIALS_KEY: CURRENT, CREDENTIALS_PREVIOUS_KEYS: `k0:${OLD}` },
      encoding: 'utf8',
      timeout: 60_000,
    })
  const first = run()
  t.equal(first.status, 1, 'a row no configured key opens makes the run fail')
  t.match(first.stdout, /examined 6, re-sealed 4, already current 1, unreadable 1/)
  t.match(first.stderr, /user lost-key, login [0-9a-f-]{36}: sealed with key k9/)
  t.notMatch(first.stdout + first.stderr, CURRENT, 'keys never printed')
  await db.deleteFrom('users').where('user_id', '=', 'lost-key').execute()
  const second = run()
  t.equal(second.status, 0)
  t.match(second.stdout, /examined 5, re-sealed 0, already current 5, unreadable 0/)
  t.match(first.stdout, /notification channels: examined 1, re-sealed 1, already current 0, unreadable 0/)
  t.match(second.stdout, /notification channels: examined 1, re-sealed 0, already current 1, unreadable 0/)
  const row = await db.selectFrom('notification_channels').selectAll().executeTakeFirstOrThrow()
  t.equal(row.key_id, 'k1', 'the channel moved to the current key')
  t.equal(openChannelSecret(CredentialsCipher.fromConfig('k1', CURRENT), row), '123:TOKEN', 'and opens with it alone')
})
