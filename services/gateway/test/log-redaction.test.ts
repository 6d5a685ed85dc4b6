import t from 'tap'
import { startPlatform } from './helper.ts'

// Issue 15 point 5: the gateway logs every webhook URL first; no query value reaches its log.
t.test('a webhook secret in any query value stays out of the gateway log', async (t) => {
  const secret = 'correct-horse-battery-staple'
  const lines: string[] = []
  const loggerStream = { write: (line: string) => lines.push(line) } as unknown as NodeJS.WritableStream
  const { gateway: app } = await startPlatform(t, { LOG_LEVEL: 'info' }, { loggerStream })
  const message = encodeURIComponent(JSON.stringify({ action: 'buy', passphrase: secret }))
  await app.inject({ method: 'POST', url: `/webhook/alert?message=${message}&x=${secret}`, payload: '{}', headers: { 'content-type': 'application/json' } })
  await app.inject({ method: 'POST', url: `/webhook/alert/${secret}`, payload: '{}', headers: { 'content-type': 'application/json' } })
  t.ok(lines.some((line) => line.includes('/webhook/alert?message=[redacted]')), 'the webhook was logged')
  t.same(lines.filter((line) => line.includes(secret)), [])
})
