import t from 'tap'
import type { Database, Kysely } from '@signals/db'
import { Durables } from '../../src/intake/plugin.ts'
import { build, drained, makeAlert, publishAlert, seedUsers } from '../helper.ts'

// Issue 22 item 3: the spec's `POST /webhook/alert` is the default operator source; a trader may opt out of
// it (docs/decisions/signal-sources.md, "Opting out of the default source").

const optOut = (db: Kysely<Database>, userId: string) => db.insertInto('default_source_opt_outs').values({ user_id: userId }).execute()

const recipientsOf = async (db: Kysely<Database>, alertId: string) =>
  (await db.selectFrom('alerts').select('user_id').where('alert_id', '=', alertId).orderBy('user_id').execute()).map((row) => row.user_id)

async function operatorSource(db: Kysely<Database>, subscribers: string[]): Promise<string> {
  const row = await db.insertInto('signal_sources').values({ owner_user_id: null, name: 'house', token_hash: crypto.randomUUID().replaceAll('-', '').padEnd(64, '0') }).returning('id').executeTakeFirstOrThrow()
  for (const user of subscribers) await db.insertInto('signal_source_subscriptions').values({ source_id: row.id, user_id: user, size_rule: 'account' }).execute()
  return row.id
}

t.test("the spec route's fan-out skips a trader who opted out; their other sources still reach them", async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 3, { prefix: 'u' })
  const house = await operatorSource(db, ['u-1'])
  await optOut(db, 'u-1')

  const spec = makeAlert({ userId: 'u-0' })
  const viaHouse = makeAlert({ userId: null, sourceId: house })
  for (const alert of [spec, viaHouse]) await publishAlert(app, alert)
  await drained(app, 'ALERTS', Durables.entry)

  t.same(await recipientsOf(db, spec.alertId), ['u-0', 'u-2'], 'every live trader but the one who opted out')
  t.same(await recipientsOf(db, viaHouse.alertId), ['u-1'], 'opting out of the default source leaves their subscription to another operator source')

  await db.deleteFrom('default_source_opt_outs').where('user_id', '=', 'u-1').execute()
  const again = makeAlert({ userId: 'u-0' })
  await publishAlert(app, again)
  await drained(app, 'ALERTS', Durables.entry)
  t.same(await recipientsOf(db, again.alertId), ['u-0', 'u-1', 'u-2'], 'subscribed again, they get records again')
})

t.test('targeted routing: an alert naming a trader who opted out makes no record', async (t) => {
  const { app, db } = await build(t, { ALERT_ROUTING: 'targeted' })
  await seedUsers(db, 2, { prefix: 'u' })
  await optOut(db, 'u-1')
  const toOptedOut = makeAlert({ userId: 'u-1' })
  const toSubscribed = makeAlert({ userId: 'u-0' })
  for (const alert of [toOptedOut, toSubscribed]) await publishAlert(app, alert)
  await drained(app, 'ALERTS', Durables.entry)
  t.same(await recipientsOf(db, toOptedOut.alertId), [], 'no record for the trader who opted out')
  t.same(await recipientsOf(db, toSubscribed.alertId), ['u-0'], 'the named trader who did not opt out gets theirs')
})

t.test("the spec route's results reach an opted-out trader's trades only where its own entries opened them", async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 2, { prefix: 'u' })
  const openTrade = async (userId: string, withRecord: boolean) => {
    const record = withRecord
      ? await db
          .insertInto('alerts')
          .values({ alert_id: crypto.randomUUID(), user_id: userId, owner_user_id: userId, symbol: 'MNQ1!', root: 'MNQ', action: 'LONG', raw_data: '{}', received_at: new Date(Date.now() - 60_000) })
          .returning('id')
          .executeTakeFirstOrThrow()
      : undefined
    const trade = await db
      .insertInto('trades')
      .values({ user_id: userId, alert_record_id: record?.id ?? null, symbol: 'MNQZ6', root: 'MNQ', side: 'LONG', quantity: '1', entry_price: '21000', status: 'open', opened_at: new Date(Date.now() - 60_000) })
      .returning('id')
      .executeTakeFirstOrThrow()
    return trade.id
  }
  // u-1 opted out after the spec route opened a trade for them; they also hold a trade no record opened.
  const optedOutsFromSpec = await openTrade('u-1', true)
  const optedOutsWithoutRecord = await openTrade('u-1', false)
  const subscribedWithoutRecord = await openTrade('u-0', false)
  await optOut(db, 'u-1')

  await publishAlert(app, makeAlert({ kind: 'result', action: null, symbol: 'MNQ1!', root: 'MNQ', result: 'TP', exitPrice: 21010, entryPrice: null, sl: null, tp: null, userId: null }))
  await drained(app, 'ALERTS', Durables.result)
  const status = async (id: number) => (await db.selectFrom('trades').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
  t.equal(await status(optedOutsWithoutRecord), 'open', "a trade the spec route did not open is out of its reach once its trader opted out")
  t.equal(await status(optedOutsFromSpec), 'closed', 'a trade its own entry opened before the opt-out still gets its exit (never left unmanaged)')
  t.equal(await status(subscribedWithoutRecord), 'closed', "a subscribed trader's trade without a record is in the spec route's reach, as before")
})
