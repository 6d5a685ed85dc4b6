import t from 'tap'
import { ALL_USER_ACTIVITY, UserActivityV1, contract, userActivitySubject, type UserActivity } from '@signals/contracts'
import { noticeOf } from '../../../src/pages/activity/activity-notice.ts'
import { build, seedUsers } from '../../helper.ts'

const checkNotice = contract(UserActivityV1)
const decoder = new TextDecoder()

/** Notices arriving on the bus, in order, and a way to wait for the next one that matches. */
function listen(app: Awaited<ReturnType<typeof build>>['app']) {
  const seen: { subject: string; notice: UserActivity }[] = []
  const waiting: { match: (notice: UserActivity) => boolean; resolve: () => void }[] = []
  const subscription = app.bus.nc.subscribe(app.bus.subject(ALL_USER_ACTIVITY), {
    callback: (_error, message) => {
      const notice = JSON.parse(decoder.decode(message.data)) as unknown
      if (!checkNotice.check(notice)) throw new Error(`not a UserActivityV1: ${decoder.decode(message.data)}`)
      seen.push({ subject: message.subject, notice })
      for (const waiter of waiting.filter((entry) => entry.match(notice))) {
        waiting.splice(waiting.indexOf(waiter), 1)
        waiter.resolve()
      }
    },
  })
  const next = (match: (notice: UserActivity) => boolean) =>
    seen.some((entry) => match(entry.notice)) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ match, resolve }))
  return { seen, next, stop: () => subscription.unsubscribe() }
}

t.test('a committed change to a user alert record or trade is announced on that user subject', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 2, { prefix: 'act' })
  const bus = listen(app)
  t.teardown(bus.stop)
  await app.bus.nc.flush()

  const record = await db
    .insertInto('alerts')
    .values({ alert_id: 'a-1', user_id: 'act-0', raw_data: JSON.stringify({}), status: 'received' })
    .returning('id')
    .executeTakeFirstOrThrow()
  await bus.next((notice) => notice.kind === 'alert' && notice.id === String(record.id))
  await db.updateTable('alerts').set({ status: 'refused' }).where('id', '=', record.id).execute()
  const trade = await db
    .insertInto('trades')
    .values({ user_id: 'act-1', symbol: 'NQZ6', side: 'LONG', quantity: '1', entry_price: '21000', status: 'open' })
    .returning('id')
    .executeTakeFirstOrThrow()
  await bus.next((notice) => notice.kind === 'trade' && notice.id === String(trade.id))

  const alertNotices = bus.seen.filter((entry) => entry.notice.kind === 'alert')
  t.ok(alertNotices.length >= 2, 'the insert and the update are both announced')
  t.equal(alertNotices[0]?.subject, app.bus.subject(userActivitySubject('act-0')), 'on the owner subject')
  t.equal(alertNotices[0]?.notice.userId, 'act-0')
  const tradeNotice = bus.seen.find((entry) => entry.notice.kind === 'trade')
  t.equal(tradeNotice?.subject, app.bus.subject(userActivitySubject('act-1')), 'the trade on its own user subject')
})

t.test('a rolled-back change and a test alert announce nothing', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 1, { prefix: 'rb' })
  const bus = listen(app)
  t.teardown(bus.stop)
  await app.bus.nc.flush()

  await db
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('alerts').values({ alert_id: 'rolled', user_id: 'rb-0', raw_data: JSON.stringify({}) }).execute()
      throw new Error('roll back')
    })
    .catch(() => undefined)
  await db.insertInto('alerts').values({ alert_id: 'test-1', user_id: null, is_test: true, status: 'test', raw_data: JSON.stringify({}) }).execute()
  // A marker after both: once it arrives, anything the two had sent would have arrived first (one connection, in order).
  const marker = await db.insertInto('alerts').values({ alert_id: 'marker', user_id: 'rb-0', raw_data: JSON.stringify({}) }).returning('id').executeTakeFirstOrThrow()
  await bus.next((notice) => notice.id === String(marker.id))
  t.same(bus.seen.map((entry) => entry.notice.id), [String(marker.id)], 'only the committed live record was announced')
})

t.test('notification payloads that are not notices are refused', async (t) => {
  const now = new Date('2026-11-23T00:00:00Z')
  t.equal(noticeOf(undefined, now), null)
  t.equal(noticeOf('not json', now), null)
  t.equal(noticeOf(JSON.stringify({ userId: 'u', kind: 'other', id: '1' }), now), null, 'unknown kind')
  t.same(noticeOf(JSON.stringify({ userId: 'u', kind: 'trade', id: '7' }), now), { version: 1, userId: 'u', kind: 'trade', id: '7', at: now.toISOString() })
})
