import t from 'tap'
import { build } from '../helper.ts'

// Issue 15 point 5: a webhook secret inside any query value never reaches ingest's request log.
const SECRET = 'correct-horse-battery-staple'

t.test('a secret in ?message= or any other query value is not in the log lines', async (t) => {
  const { app, logLines } = await build(t, { WEBHOOK_SECRET: SECRET, LOG_LEVEL: 'info' })
  const message = encodeURIComponent(JSON.stringify({ action: 'buy', symbol: 'NQ1!', user_id: 'u1', id: 'q-1', passphrase: SECRET }))
  const inMessage = await app.inject({ method: 'POST', url: `/webhook/alert?message=${message}` })
  t.equal(inMessage.statusCode, 200, 'the secret inside ?message= is accepted')
  await app.inject({ method: 'POST', url: `/webhook/alert?note=${SECRET}`, payload: { action: 'buy', symbol: 'NQ1!' } })
  await app.inject({ method: 'POST', url: `/%77ebhook/alert/${SECRET}`, payload: { action: 'buy', symbol: 'NQ1!', id: 'q-2' } })
  t.ok(logLines.some((line) => line.includes('/webhook/alert?message=[redacted]')), 'the request is logged, its value redacted')
  t.notMatch(logLines.join(''), SECRET)
})
