import t from 'tap'
import { sql } from '@signals/db'
import { Durables } from '../../src/intake/plugin.ts'
import { build, countRows, drained, identityHeaders, makeAlert, publishAlert, seedUsers } from '../helper.ts'

t.test('a test alert is recorded once as a test, owned by the payload user, and never traded', async (t) => {
  const { app, db, config } = await build(t)
  await seedUsers(db, 3, { prefix: 'live' })
  const alert = makeAlert({ kind: 'test', isVendorTest: true, indicator: 'Premium Pro', userId: 'live-1' })
  await publishAlert(app, alert, 'alerts.test', 'first')
  await publishAlert(app, alert, 'alerts.test', 'again')
  await drained(app, 'ALERTS', Durables.test)
  const rows = await db.selectFrom('alerts').selectAll().where('alert_id', '=', alert.alertId).execute()
  t.equal(rows.length, 1, 'one record, however often delivered')
  t.match(rows[0], { is_test: true, user_id: null, owner_user_id: 'live-1', status: 'test', indicator: 'Premium Pro', entry_price: '21000.25000000' })
  t.equal(await countRows(db, sql<{ count: number }>`SELECT count(*)::int AS count FROM trades`), 0, 'no trade')
  const listed = await app.inject({ method: 'GET', url: '/api/alerts', headers: identityHeaders(config, 'live-1') })
  t.same(listed.json().alerts, [], "not among the owner's live records")
})

t.test('an alert flagged isVendorTest is recorded as a test even on the entry or result subject', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 2, { prefix: 'live' })
  const onEntry = makeAlert({ isVendorTest: true })
  const onResult = makeAlert({ kind: 'result', isVendorTest: true, result: 'TP', exitPrice: 1 })
  const id = await db.insertInto('trades').values({ user_id: 'live-0', symbol: 'NQ1!', root: 'NQ', side: 'LONG', quantity: '1', entry_price: '1' }).returning('id').executeTakeFirstOrThrow()
  await publishAlert(app, onEntry, 'alerts.entry')
  await publishAlert(app, onResult, 'alerts.result')
  await drained(app, 'ALERTS', Durables.entry)
  await drained(app, 'ALERTS', Durables.result)
  const rows = await db.selectFrom('alerts').select(['alert_id', 'is_test', 'user_id']).orderBy('alert_id').execute()
  t.same(rows, [onEntry, onResult].map((a) => ({ alert_id: a.alertId, is_test: true, user_id: null })).sort((a, b) => a.alert_id.localeCompare(b.alert_id)))
  const open = await db.selectFrom('trades').select('status').where('id', '=', id.id).executeTakeFirstOrThrow()
  t.equal(open.status, 'open', 'the test result closed nothing')
})
