import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import { Durables } from '../../src/intake/plugin.ts'
import { build, drained, makeAlert, publishAlert, seedUsers, setLiveTrading } from '../helper.ts'

/** A source row as settings or admin makes it; `owner` null: an operator source. */
async function source(db: Kysely<Database>, owner: string | null, subscribers: string[]): Promise<string> {
  const row = await db.insertInto('signal_sources').values({ owner_user_id: owner, name: 'src', token_hash: crypto.randomUUID().replaceAll('-', '').padEnd(64, '0') }).returning('id').executeTakeFirstOrThrow()
  for (const user of subscribers) await db.insertInto('signal_source_subscriptions').values({ source_id: row.id, user_id: user, size_rule: 'account' }).execute()
  return row.id
}

const recordsOf = async (db: Kysely<Database>, alertId: string) =>
  (await db.selectFrom('alerts').select(['user_id', 'source_id']).where('alert_id', '=', alertId).orderBy('user_id').execute()).map((row) => [row.user_id, row.source_id])

t.test("a trader's source reaches its owner only, when subscribed; an operator source every subscribed live trader", async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 4, { prefix: 'u' })
  const mine = await source(db, 'u-0', ['u-0'])
  // u-1's subscription row to u-0's source is no way in (the API refuses it; the delivery ignores it too).
  await db.insertInto('signal_source_subscriptions').values({ source_id: mine, user_id: 'u-1', size_rule: 'account' }).execute()
  const house = await source(db, null, ['u-1', 'u-2'])
  const unsubscribed = await source(db, 'u-3', [])

  const viaMine = makeAlert({ userId: 'u-0', sourceId: mine })
  const viaHouse = makeAlert({ userId: null, sourceId: house })
  const viaUnsubscribed = makeAlert({ userId: 'u-3', sourceId: unsubscribed })
  const spec = makeAlert({ userId: 'u-0' })
  for (const alert of [viaMine, viaHouse, viaUnsubscribed, spec]) await publishAlert(app, alert)
  await drained(app, 'ALERTS', Durables.entry)

  t.same(await recordsOf(db, viaMine.alertId), [['u-0', mine]], 'the owner only')
  t.same(await recordsOf(db, viaHouse.alertId), [['u-1', house], ['u-2', house]], 'every subscriber, with the source on each record')
  t.same(await recordsOf(db, viaUnsubscribed.alertId), [], 'an owner who unsubscribed gets nothing')
  t.same(await recordsOf(db, spec.alertId), [['u-0', null], ['u-1', null], ['u-2', null], ['u-3', null]], 'the spec route still fans out to every live trader')

  await sql`UPDATE signal_sources SET revoked_at = now() WHERE id = ${house}`.execute(db)
  await setLiveTrading(db, ['u-1'], { enabled: false, autoPlaceOrders: false })
  const afterRevoke = makeAlert({ userId: null, sourceId: house })
  await publishAlert(app, afterRevoke)
  await drained(app, 'ALERTS', Durables.entry)
  t.same(await recordsOf(db, afterRevoke.alertId), [], 'a revoked source reaches no one, even if the alert was accepted before')
})

t.test('a result from a source closes only trades its own entries opened; the spec route\'s, only those of no source', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 2, { prefix: 'u' })
  const aliceSource = await source(db, 'u-0', ['u-0'])
  const bobSource = await source(db, 'u-1', ['u-1'])
  const tradeFrom = async (userId: string, sourceId: string | null) => {
    const record = await db
      .insertInto('alerts')
      .values({ alert_id: crypto.randomUUID(), user_id: userId, owner_user_id: userId, symbol: 'MNQ1!', root: 'MNQ', action: 'LONG', raw_data: '{}', received_at: new Date(Date.now() - 60_000), source_id: sourceId })
      .returning('id')
      .executeTakeFirstOrThrow()
    const trade = await db.insertInto('trades').values({ user_id: userId, alert_record_id: record.id, symbol: 'MNQZ6', root: 'MNQ', side: 'LONG', quantity: '1', entry_price: '21000', status: 'open' }).returning('id').executeTakeFirstOrThrow()
    return trade.id
  }
  const alicesFromHerSource = await tradeFrom('u-0', aliceSource)
  const bobsFromHisSource = await tradeFrom('u-1', bobSource)
  const bobsFromSpec = await tradeFrom('u-1', null)
  const status = async (id: number) => (await db.selectFrom('trades').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

  // Alice's source, an anonymous result (the audit's `{"symbol":"MNQ1!","result":"SL"}`): hers only.
  await publishAlert(app, makeAlert({ kind: 'result', action: null, symbol: 'MNQ1!', root: 'MNQ', result: 'SL', exitPrice: 20990, entryPrice: null, sl: null, tp: null, userId: 'u-0', sourceId: aliceSource }))
  await drained(app, 'ALERTS', Durables.result)
  t.equal(await status(alicesFromHerSource), 'closed', "her source's trade closes")
  t.equal(await status(bobsFromHisSource), 'open', "bob's trade from his own source is out of her source's reach")
  t.equal(await status(bobsFromSpec), 'open', "and so is bob's trade from the spec route")

  await publishAlert(app, makeAlert({ kind: 'result', action: null, symbol: 'MNQ1!', root: 'MNQ', result: 'TP', exitPrice: 21010, entryPrice: null, sl: null, tp: null, userId: null }))
  await drained(app, 'ALERTS', Durables.result)
  t.equal(await status(bobsFromSpec), 'closed', "the spec route's result closes the spec route's trade")
  t.equal(await status(bobsFromHisSource), 'open', 'but not one a signal source opened')
})
