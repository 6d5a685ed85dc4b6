import t from 'tap'
import { RateLimiter } from '../src/rate-limit.ts'
import { SessionTokens } from '../src/tokens.ts'

t.test('the rate limit is a sliding window per login', async (t) => {
  let clock = 0
  const limiter = new RateLimiter({ limit: 2, windowMs: 1_000 }, () => clock)
  t.ok(limiter.take('a'))
  clock = 400
  t.ok(limiter.take('a'))
  t.notOk(limiter.take('a'), 'the third in the window is refused')
  t.ok(limiter.take('b'), 'another login has its own budget')
  t.equal(limiter.retryAfter('a'), 1)
  clock = 1_001
  t.ok(limiter.take('a'), 'the first request left the window')
  t.notOk(limiter.take('a'))
})

t.test('session tokens: signed, expiring; validate issues a new one', async (t) => {
  let clock = new Date('2026-11-20T15:00:00Z')
  const tokens = new SessionTokens(24 * 3_600_000, () => clock)
  const token = tokens.issue('demo')
  t.equal(tokens.userOf(token), 'demo')
  const [header, , signature] = token.split('.')
  const forged = `${header}.${Buffer.from(JSON.stringify({ sub: 'admin', exp: 4e9 })).toString('base64url')}.${signature}`
  t.equal(tokens.userOf(forged), null, 'a changed payload fails the signature')
  t.equal(new SessionTokens(60_000, () => clock).userOf(token), null, "another broker's key does not verify it")
  clock = new Date('2026-11-21T14:59:59Z')
  t.equal(tokens.userOf(token), 'demo', 'valid for 24 hours')
  clock = new Date('2026-11-21T15:00:01Z')
  t.equal(tokens.userOf(token), null, 'expired after 24 hours')
})
