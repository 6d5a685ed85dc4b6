import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import { applyEntryFill } from '../../src/repositories/broker-trades.ts'
import { claimOwnLegFlatten, closeOwnLegPlan, countOwnLegFill, noteOwnLegPlaced, ownLegPlans, saveOwnLegPlan } from '../../src/repositories/own-leg-plans.ts'
import { build, eventually, seedUsers } from '../helper.ts'

// docs/decisions/projectx-adapter.md, "Our legs": a trade opened from a fill seen while no session listened is
// told the legs the connector places for it when they are placed, and a trade opened after reads them from
// own_legs. The two writes cross at a session open (the snapshot's fill opens the trade while its legs go out).

/** Backends of this database waiting for a lock. */
const lockWaiters = async (db: Kysely<Database>): Promise<number> =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db)).rows[0]?.n ?? 0)

t.test('a leg noted placed while the fill that opens its trade is being written: the trade knows the leg', async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  await seedUsers(db, 1, { prefix: 'ol' })
  const record = await db
    .insertInto('alerts')
    .values({ alert_id: 'entry-1', user_id: 'ol-0', symbol: 'MNQ1!', root: 'MNQ', action: 'LONG', raw_data: '{}', contract: 'MNQZ6', status: 'placed' })
    .returning('id')
    .executeTakeFirstOrThrow()
  const tag = `sig-${record.id}`
  await db.updateTable('alerts').set({ order_tag: tag }).where('id', '=', record.id).execute()
  t.ok(await saveOwnLegPlan(db, { tag, brokerAccountId: 7000, contractId: 'CON.F.US.MNQ.Z26', side: 1, stop: '20940', target: '21090' }))
  const scope = { broker: 'projectx' as const, environment: 'demo' as const, accountId: 7000 }
  const fill = { recordId: record.id, userId: 'ol-0', scope, fillId: 1, orderId: 11, contractId: 42, quantity: 1, price: '20990', at: new Date().toISOString(), stopOrderId: null, targetOrderId: null }

  // A trade of the record another writer has not committed: the fill's insert reads the legs (none placed yet),
  // then waits on it. Meanwhile the stop is noted placed; the other writer then rolls back.
  let release = (): void => undefined
  const released = new Promise<void>((resolve) => (release = resolve))
  let holding = (): void => undefined
  const held = new Promise<void>((resolve) => (holding = resolve))
  const other = db
    .transaction()
    .execute(async (trx) => {
      await sql`INSERT INTO trades (user_id, alert_record_id, symbol, side, quantity, entry_price, opened_at) VALUES ('ol-0', ${record.id}, 'MNQ1!', 'LONG', 1, 20990, now())`.execute(trx)
      holding()
      await released
      throw new Error('rolled back')
    })
    .catch(() => undefined)
  await held
  const opening = applyEntryFill(db, fill)
  await eventually(async () => (await lockWaiters(db)) >= 1)
  let noted = false
  const noting = noteOwnLegPlaced(db, tag, 'sl', 555, 1).then(() => (noted = true))
  // Noted at once, or waiting its turn behind the fill: either way, the other writer lets go then.
  await eventually(async () => noted || (await lockWaiters(db)) >= 2)
  release()
  await Promise.all([other, opening, noting])

  const trade = await db.selectFrom('trades').select(['stop_order_id', 'quantity']).where('alert_record_id', '=', record.id).executeTakeFirstOrThrow()
  t.equal(Number(trade.quantity), 1, 'the fill opened the trade')
  t.equal(Number(trade.stop_order_id), 555, 'the trade knows the stop placed for it')
})

t.test('a plan closed once, at what its legs stood for; late contracts claimed for their close once each, and only on a closed plan', async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  await seedUsers(db, 1, { prefix: 'oc' })
  const record = await db
    .insertInto('alerts')
    .values({ alert_id: 'entry-2', user_id: 'oc-0', symbol: 'MNQ1!', root: 'MNQ', action: 'LONG', raw_data: '{}', contract: 'MNQZ6', status: 'placed' })
    .returning('id')
    .executeTakeFirstOrThrow()
  const tag = `sig-${record.id}`
  await db.updateTable('alerts').set({ order_tag: tag }).where('id', '=', record.id).execute()
  t.ok(await saveOwnLegPlan(db, { tag, brokerAccountId: 7000, contractId: 'CON.F.US.MNQ.Z26', side: 1, stop: '20940', target: '21090' }))
  await countOwnLegFill(db, tag, 1, 1)
  t.notOk(await claimOwnLegFlatten(db, tag, 0, 1), 'nothing is closed at the market on a plan not closed')
  t.match((await ownLegPlans(db, [tag]))[0], { filled: 1, closedFilled: null, flattened: 0 })

  const both = await Promise.all([closeOwnLegPlan(db, tag, 1), closeOwnLegPlan(db, tag, 2)])
  t.same(both.filter(Boolean).length, 1, 'closed by one caller')
  const closedAt = (await ownLegPlans(db, [tag]))[0]?.closedFilled
  t.ok(closedAt === 1 || closedAt === 2, 'at what the winning caller said its legs stood for')
  t.notOk(await closeOwnLegPlan(db, tag, 5), 'a later close changes nothing')

  await countOwnLegFill(db, tag, 2, 1)
  const claims = await Promise.all([claimOwnLegFlatten(db, tag, 0, 1), claimOwnLegFlatten(db, tag, 0, 1)])
  t.same(claims.filter(Boolean).length, 1, 'a late contract is claimed for its close once')
  t.notOk(await claimOwnLegFlatten(db, tag, 0, 1), 'and never again')
  t.match((await ownLegPlans(db, [tag]))[0], { filled: 2, flattened: 1 })
})
