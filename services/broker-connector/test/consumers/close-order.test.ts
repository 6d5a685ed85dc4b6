import t from 'tap'
import { sql } from '@signals/db'
import { build, eventually, makeAlert, publishAlert, seedUsers } from '../helper.ts'

t.test('closing the app lets an in-flight alert handler finish on a live database pool before the pool closes', async (t) => {
  let release: () => void = () => undefined
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const seen: string[] = []
  const { app, db } = await build(t, {}, {
    entryFlow: (flowDb) => ({
      async handOff() {
        seen.push('handler started')
        await released
        // Written through the app's pool after close() was called: it must still be open.
        const result = await sql<{ one: number }>`SELECT 1 AS one`.execute(flowDb)
        seen.push(`handler queried ${result.rows[0]?.one}`)
      },
    }),
  })
  await seedUsers(db, 1, { prefix: 'live' })
  await publishAlert(app, makeAlert())
  await eventually(() => seen.includes('handler started'))

  const closing = app.close().then(() => seen.push('app closed'))
  // Give close() time to run every hook it would run before waiting on the handler.
  await new Promise((resolve) => setTimeout(resolve, 300))
  seen.push('released')
  release()
  await closing
  t.same(seen, ['handler started', 'released', 'handler queried 1', 'app closed'], 'the handler finished, with the pool open, before close() resolved')
})
