import t from 'tap'
import { openBucket } from '@signals/bus'
import { Buckets, feedStatusKey } from '@signals/contracts'
import { deleteNamespaceStreams, eventually, testNamespace } from '@signals/test-support'
import { watchFeedStatus } from '../../src/live/feed-status-watch.ts'
import { build } from '../helper.ts'

t.test('a feed status rewrite that only moves lastHeardAt is no change; a new state or detail is', async (t) => {
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const { app } = await build(t, { BUS_NAMESPACE: namespace })
  const changes: string[] = []
  const watch = await watchFeedStatus(app.bus, (userId) => changes.push(userId), app.log)
  t.teardown(() => watch.stop())
  const bucket = await openBucket(app.bus, Buckets.feedStatus)
  const status = (userId: string, state: string, detail: string | null, lastHeardAt: string) =>
    bucket.put(feedStatusKey(userId), JSON.stringify({ version: 1, userId, state, detail, updatedAt: '2026-01-01T00:00:00.000Z', lastHeardAt }))

  await status('u-1', 'connected', 'account A', '2026-01-01T00:00:01.000Z')
  await status('u-1', 'connected', 'account A', '2026-01-01T00:00:11.000Z')
  await status('u-1', 'connected', 'account A', '2026-01-01T00:00:21.000Z')
  await status('u-1', 'error', 'lost; reconnecting', '2026-01-01T00:00:21.000Z')
  await status('u-1', 'error', 'lost; retrying in 2 s', '2026-01-01T00:00:21.000Z')
  // The watcher delivers in order: once the marker user's change is seen, every earlier entry was handled.
  await status('marker', 'connected', null, '2026-01-01T00:00:00.000Z')
  await eventually(() => changes.includes('marker'), { timeoutMs: 15_000 })
  t.same(changes.filter((userId) => userId === 'u-1').length, 3, 'connected, error, and the new detail: three changes, not five')
})
