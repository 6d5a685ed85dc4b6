import t, { type Test } from 'tap'
import type { Database, Kysely } from '@signals/db'
import { build, identityHeaders, seedUsers } from '../../helper.ts'

// Issue 22 item 1 (docs/decisions/accounts.md, stage 3a): records and trades carry their account and can be
// filtered by it. `?accountId=` is one of the caller's accounts (its id in `GET /api/accounts`); another
// trader's account, or one that does not exist, answers 404 as `/api/accounts/:id` does; a malformed id 400.

async function secondAccount(db: Kysely<Database>, userId: string): Promise<string> {
  const login = await db
    .insertInto('broker_logins')
    .values({ user_id: userId, broker: 'paper', environment: 'demo', bound_account_ref: 'EVAL2', key_id: 'k', secret_iv: Buffer.alloc(12), secret_tag: Buffer.alloc(16), secret_ciphertext: Buffer.alloc(8) })
    .returning('id')
    .executeTakeFirstOrThrow()
  return (await db.insertInto('broker_accounts').values({ user_id: userId, login_id: login.id, broker_account_ref: 'EVAL2', name: 'Eval 2' }).returning('id').executeTakeFirstOrThrow()).id
}

const primaryOf = async (db: Kysely<Database>, userId: string) =>
  (await db.selectFrom('broker_accounts').select('id').where('user_id', '=', userId).where('is_primary', '=', true).executeTakeFirstOrThrow()).id

async function setup(t: Test) {
  const built = await build(t, {}, { consumers: false })
  const { db } = built
  await seedUsers(db, 2, { prefix: 'u' })
  const primary = await primaryOf(db, 'u-0')
  const second = await secondAccount(db, 'u-0')
  const other = await primaryOf(db, 'u-1')
  const record = (alertId: string, userId: string, accountId: string | null) =>
    db.insertInto('alerts').values({ alert_id: alertId, user_id: userId, account_id: accountId, owner_user_id: userId, symbol: 'MNQ1!', action: 'LONG', raw_data: '{}', status: 'placed' }).returning('id').executeTakeFirstOrThrow()
  const p1 = await record('p-1', 'u-0', primary)
  await record('s-1', 'u-0', second)
  await record('p-2', 'u-0', primary)
  await record('gone-1', 'u-0', null)
  await record('o-1', 'u-1', other)
  const trade = (userId: string, accountId: string | null, symbol: string, alertRecordId: number | null = null) =>
    db.insertInto('trades').values({ user_id: userId, account_id: accountId, alert_record_id: alertRecordId, symbol, side: 'LONG', quantity: '1', entry_price: '21000', broker: 'paper', environment: 'demo', broker_account_id: 9000 }).execute()
  await trade('u-0', primary, 'MNQZ6', p1.id)
  await trade('u-0', second, 'ESZ6')
  await trade('u-0', primary, 'NQZ6')
  await trade('u-1', other, 'CLZ6')
  return { ...built, primary, second, other }
}

t.test('GET /api/alerts returns each record\'s account and lists one account\'s records when asked', async (t) => {
  const { app, config, primary, second } = await setup(t)
  const headers = identityHeaders(config, 'u-0')
  const all = (await app.inject({ method: 'GET', url: '/api/alerts', headers })).json()
  t.same(all.alerts.map((a: { alertId: string; accountId: string | null }) => [a.alertId, a.accountId]), [['gone-1', null], ['p-2', primary], ['s-1', second], ['p-1', primary]], 'every record says its account (null once removed)')

  const onPrimary = await app.inject({ method: 'GET', url: `/api/alerts?accountId=${primary}`, headers })
  t.equal(onPrimary.statusCode, 200)
  t.same(onPrimary.json().alerts.map((a: { alertId: string }) => a.alertId), ['p-2', 'p-1'])
  const paged = (await app.inject({ method: 'GET', url: `/api/alerts?accountId=${primary}&limit=1`, headers })).json()
  t.same(paged.alerts.map((a: { alertId: string }) => a.alertId), ['p-2'])
  const rest = (await app.inject({ method: 'GET', url: `/api/alerts?accountId=${primary}&limit=1&before=${paged.nextCursor}`, headers })).json()
  t.same(rest.alerts.map((a: { alertId: string }) => a.alertId), ['p-1'], 'paging keeps the filter')
  t.same((await app.inject({ method: 'GET', url: `/api/alerts?accountId=${second}`, headers })).json().alerts.map((a: { alertId: string }) => a.alertId), ['s-1'])
})

t.test("GET /api/trades returns each trade's account beside the broker's id, and lists one account's trades when asked", async (t) => {
  const { app, config, primary, second } = await setup(t)
  const headers = identityHeaders(config, 'u-0')
  const all = (await app.inject({ method: 'GET', url: '/api/trades', headers })).json()
  t.same(all.trades.map((tr: { symbol: string; accountId: string }) => [tr.symbol, tr.accountId]), [['NQZ6', primary], ['ESZ6', second], ['MNQZ6', primary]])
  t.match(all.trades[0], { brokerAccountId: '9000' }, "the broker's own id of the account moves to brokerAccountId")
  const onSecond = (await app.inject({ method: 'GET', url: `/api/trades?accountId=${second}&status=open`, headers })).json()
  t.same(onSecond.trades.map((tr: { symbol: string }) => tr.symbol), ['ESZ6'])
  const none = await app.inject({ method: 'GET', url: `/api/trades?accountId=${second}&status=closed`, headers })
  t.equal(none.statusCode, 200)
  t.same(none.json().trades, [], 'an account of yours with nothing to show is an empty list')
})

t.test("another trader's account, or one that does not exist, is 404; a malformed id 400", async (t) => {
  const { app, config, other } = await setup(t)
  const headers = identityHeaders(config, 'u-0')
  for (const route of ['/api/alerts', '/api/trades']) {
    for (const id of [other, '00000000-0000-4000-8000-000000000000']) {
      const response = await app.inject({ method: 'GET', url: `${route}?accountId=${id}`, headers })
      t.equal(response.statusCode, 404, `${route} ${id}`)
      t.same(response.json(), { success: false, error: 'Account not found' })
    }
    for (const id of ['not-a-uuid', '', "1' OR '1'='1", 'AAAAAAAA-0000-4000-8000-000000000000x']) {
      const response = await app.inject({ method: 'GET', url: `${route}?accountId=${encodeURIComponent(id)}`, headers })
      t.equal(response.statusCode, 400, `${route} ${JSON.stringify(id)}`)
      t.match(response.json(), { success: false, error: /^Invalid querystring: / })
    }
  }
})
