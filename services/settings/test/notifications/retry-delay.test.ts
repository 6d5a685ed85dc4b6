import t from 'tap'
import { retryDelay } from '../../src/notifications/dispatcher.ts'

t.test('a failed send waits the base, doubled after each failure, at most an hour, and stops at the last attempt', async (t) => {
  const options = { maxAttempts: 8, retryBaseMs: 15_000 }
  t.same([1, 2, 3, 4, 5, 6, 7].map((attempts) => retryDelay(attempts, options)), [15_000, 30_000, 60_000, 120_000, 240_000, 480_000, 960_000])
  t.equal(retryDelay(8, options), null, 'the eighth failure is the last')
  t.equal(retryDelay(10, { maxAttempts: 20, retryBaseMs: 3_600_000 }), 3_600_000, 'capped at an hour')
})
