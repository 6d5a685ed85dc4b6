import t from 'tap'
import { sql } from '@signals/db'
import { isLive, liveUsers } from '../../src/repositories/feeds.ts'
import { build, seedUsers } from '../helper.ts'

t.test('feeds start only for live users who are approved and not banned', async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  await seedUsers(db, 3, { prefix: 'live' })
  await seedUsers(db, 1, { prefix: 'pending', approved: false })
  await seedUsers(db, 1, { prefix: 'off', live: false })
  await sql`INSERT INTO banned_emails (email, reason) VALUES ('live-1@example.com', 'fraud')`.execute(db)
  t.same((await liveUsers(db)).sort(), ['live-0', 'live-2'])
  t.equal(await isLive(db, 'live-0'), true)
  t.equal(await isLive(db, 'live-1'), false, 'banned')
  t.equal(await isLive(db, 'pending-0'), false, 'not approved')
  t.equal(await isLive(db, 'off-0'), false, 'live trading off')
})
