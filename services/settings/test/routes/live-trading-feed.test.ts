import t from 'tap'
import { build } from '../helper.ts'

const live = (enabled: boolean, autoPlaceOrders = false) => ({ settingKey: 'live_trading', settingValue: { enabled, autoPlaceOrders } })

t.test('live_trading publishes one feed command per change, in order, and none for a non-change', async (t) => {
  const { app, createUser, feedMessages } = await build(t)
  const headers = await createUser('erin')
  const save = (enabled: boolean, autoPlaceOrders = false) =>
    app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: live(enabled, autoPlaceOrders) })

  const off = await save(false)
  t.equal(off.json().feedCommand, null, 'false -> false (default) is no change')
  t.same(await feedMessages(), [], 'nothing published')

  const on = await save(true)
  t.equal(on.statusCode, 200)
  t.match(on.json().feedCommand, { action: 'start', delivery: 'sent' })
  const onAgain = await save(true)
  t.equal(onAgain.json().feedCommand, null, 'true -> true publishes nothing')
  const autoPlace = await save(true, true)
  t.equal(autoPlace.json().feedCommand, null, 'auto-place alone does not touch the feed')
  const stop = await save(false)
  t.match(stop.json().feedCommand, { action: 'stop', delivery: 'sent' })
  await save(false)
  const restart = await save(true)
  t.match(restart.json().feedCommand, { action: 'start' })

  const messages = await feedMessages()
  t.same(messages.map((m) => m.subject), ['feeds.start', 'feeds.stop', 'feeds.start'])
  t.same(
    messages.map((m) => m.body.commandId),
    [on.json().feedCommand.commandId, stop.json().feedCommand.commandId, restart.json().feedCommand.commandId],
    'each message carries the command id the response named',
  )
  for (const message of messages) {
    t.equal(message.messageId, message.body.commandId, 'the bus message id is the command id (dedup on resend)')
    t.match(message.body, { version: 1, userId: 'erin', requestedAt: String })
  }
  const queued = await app.db.selectFrom('feed_commands').select('published_at').where('user_id', '=', 'erin').execute()
  t.equal(queued.length, 3)
  t.ok(queued.every((row) => row.published_at !== null), 'every outbox row is marked published')
})

t.test('concurrent saves of enabled=true publish exactly one start', async (t) => {
  const { app, createUser, feedMessages } = await build(t)
  const headers = await createUser('frank')
  const responses = await Promise.all(
    Array.from({ length: 10 }, () => app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: live(true) })),
  )
  t.same(new Set(responses.map((r) => r.statusCode)), new Set([200]))
  t.equal(responses.filter((r) => r.json().feedCommand !== null).length, 1, 'one save saw the change')
  const messages = await feedMessages()
  t.same(messages.map((m) => m.subject), ['feeds.start'])

  t.test('and concurrent toggles publish alternating commands, one per actual change', async (t) => {
    const toggles = await Promise.all(
      [false, true, false, true, false, false, true, true].map((enabled) =>
        app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: live(enabled) }),
      ),
    )
    t.same(new Set(toggles.map((r) => r.statusCode)), new Set([200]))
    const subjects = (await feedMessages()).map((m) => m.subject)
    for (let index = 1; index < subjects.length; index++) {
      t.not(subjects[index], subjects[index - 1], `message ${index} alternates`)
    }
    const final = (await app.inject({ method: 'GET', url: '/api/trading-settings', headers })).json().settings.live_trading.value.enabled
    t.equal(subjects.at(-1), final ? 'feeds.start' : 'feeds.stop', 'the last command matches the stored state')
    t.equal(subjects.length, 1 + toggles.filter((r) => r.json().feedCommand !== null).length)
  })
})
