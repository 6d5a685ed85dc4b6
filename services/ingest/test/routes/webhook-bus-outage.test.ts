import t from 'tap'
import { startPrivateNats } from '@signals/test-support'
import { Streams } from '@signals/contracts'
import { build, eventually, streamMessageCount } from '../helper.ts'

t.test('NATS down: 503 within 2 s, nothing lost; back up: the next alert is accepted and the log catches up', async (t) => {
  const nats = await startPrivateNats()
  t.teardown(() => nats.destroy())
  const { app, watcher } = await build(t, { NATS_URL: nats.url })

  const before = await app.inject({ method: 'POST', url: '/webhook/alert', payload: { action: 'buy', symbol: 'NQ1!', user_id: 'u1', id: 'before' } })
  t.equal(before.statusCode, 200)
  await watcher.intakeEntries(1)

  await nats.stop()
  const startedAt = Date.now()
  const during = await app.inject({ method: 'POST', url: '/webhook/alert', payload: { action: 'buy', symbol: 'NQ1!', user_id: 'u1', id: 'during' } })
  const elapsedMs = Date.now() - startedAt
  t.equal(during.statusCode, 503, 'the sender is told to try again')
  t.same(during.json(), { success: false, error: 'Alert bus unavailable, please retry' })
  t.ok(elapsedMs < 2_000, `answered in ${elapsedMs} ms (< 2000)`)
  const ready = await app.inject({ method: 'GET', url: '/ready' })
  t.equal(ready.statusCode, 503, '/ready reports NATS down')

  await nats.start()
  await eventually(() => app.bus.isConnected(), 10_000)
  const resent = await app.inject({ method: 'POST', url: '/webhook/alert', payload: { action: 'buy', symbol: 'NQ1!', user_id: 'u1', id: 'during' } })
  t.equal(resent.statusCode, 200, 'the resend after the outage is accepted')
  const duringId = resent.json().alertId
  t.match(resent.json(), { success: true, alertId: /^[0-9a-f]{40}$/ })
  // A publish the client buffered during the outage may reach the stream on reconnect; either way once.
  t.equal(await streamMessageCount(app, Streams.alerts.name), 2, 'each alert stored exactly once')

  // The 503's entry waited for the bus with backoff (at most 5 s between tries).
  await eventually(() => watcher.intake.some((entry) => entry.statusCode === 503), 20_000)
  t.match(watcher.intake.find((entry) => entry.statusCode === 503), { outcome: 'unavailable', alertId: duringId }, 'the 503 reached the intake log once the bus was back')
  t.same(watcher.invalid, [])
})
