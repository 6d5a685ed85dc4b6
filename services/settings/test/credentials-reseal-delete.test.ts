import t from 'tap'
import { randomBytes } from 'node:crypto'
import { createDb, sql, type Database, type Kysely } from '@signals/db'
import { CredentialsCipher, credentialsContext } from '@signals/secrets'
import { createTestDatabase, eventually, storePrimaryLogin } from '@signals/test-support'
import { resealCredentials } from '../src/credentials-reseal.ts'
import { deletePrimaryLogin } from '../src/repositories/primary-login.ts'

// Found by the review of the login move (4d96e66). DELETE /api/broker-credentials took the spec's row (the trigger on the primary's
// unlink) BEFORE it locked the login; credentials:reseal locks the login (its UPDATE) and then the spec's row (the
// trigger on broker_logins). Opposite orders: when they overlap, Postgres aborts one with a deadlock.
// A third transaction holding FOR KEY SHARE on the login stands in for "the delete reaches the login lock a moment
// late" (it blocks the delete's FOR UPDATE but not the reseal's no-key UPDATE), making the overlap deterministic.
const key = () => randomBytes(32).toString('base64')
const OLD = key()
const CURRENT = key()

const lockWaiters = async (db: Kysely<Database>) =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db)).rows[0]?.n)

t.test('credentials:reseal and a credentials delete of the same trader both complete', async (t) => {
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const db = createDb({ connectionString: database.url })
  t.teardown(() => db.destroy())
  await db.insertInto('users').values({ user_id: 'ada', email: 'ada@example.com', approved: true }).execute()
  const owner = { userId: 'ada', broker: 'paper', environment: 'demo', accountId: 'PA-1' } as const
  await storePrimaryLogin(db, { ...owner, sealed: CredentialsCipher.fromConfig('k0', OLD).seal({ username: 'u', password: 'p' }, credentialsContext(owner)) })

  let releaseHolder!: () => void
  const holderReleased = new Promise<void>((resolve) => (releaseHolder = resolve))
  let holding!: () => void
  const held = new Promise<void>((resolve) => (holding = resolve))
  const holder = db.transaction().execute(async (trx) => {
    await sql`SELECT id FROM broker_logins WHERE user_id = 'ada' FOR KEY SHARE`.execute(trx)
    holding()
    await holderReleased
  })
  await held
  const removal = db.transaction().execute((trx) => deletePrimaryLogin(trx, 'ada')).then(() => 'deleted', (error: unknown) => `delete failed: ${String(error)}`)
  await eventually(async () => (await lockWaiters(db)) === 1)
  let resealed = false
  const reseal = resealCredentials(db, CredentialsCipher.fromConfig('k1', CURRENT, `k0:${OLD}`)).then(
    () => 'resealed',
    (error: unknown) => `reseal failed: ${String(error)}`,
  ).finally(() => (resealed = true))
  // The reseal waits behind the delete, or (the delete now locking the login before it touches the spec's row) goes first.
  await eventually(async () => resealed || (await lockWaiters(db)) === 2)
  releaseHolder()
  await holder
  t.same(await Promise.all([removal, reseal]), ['deleted', 'resealed'])
})
