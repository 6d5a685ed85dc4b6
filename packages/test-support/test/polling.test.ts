// The polling helpers take a time-out as a bare number too: 83 callers passed one while only the options
// object was read, so each waited the 10 s default whatever it asked for.
import t from 'tap'
import { eventually, waitFor } from '../src/polling.ts'

t.test('a bare number is the time-out', async (t) => {
  const started = Date.now()
  await t.rejects(eventually(() => false, 100), /condition not met in time/)
  t.ok(Date.now() - started < 5_000, `gave up at the 100 ms asked for, not the 10 s default (${Date.now() - started} ms)`)
})

t.test('the options object still works, and a held condition resolves', async (t) => {
  await t.rejects(waitFor(() => undefined, { timeoutMs: 50, what: 'nothing' }), /timed out waiting for nothing/)
  let probes = 0
  t.equal(await waitFor(() => (++probes >= 3 ? 'done' : undefined), 5_000), 'done', 'resolves with the value once it comes')
})
