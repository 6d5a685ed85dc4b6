import t from 'tap'
import { build } from './helper.ts'

interface Operation {
  operationId?: string
  parameters?: { name: string; in: string }[]
  requestBody?: { content: Record<string, unknown> }
  description?: string
  security?: unknown[]
}

t.test('ingest serves its webhook document for /docs: both paths, the four forms, operation ids', async (t) => {
  const { app } = await build(t, { WEBHOOK_SECRET: 'docs-test-secret-0123456789abcdef' })
  const response = await app.inject({ method: 'GET', url: '/openapi.json' })
  t.equal(response.statusCode, 200)
  const paths = response.json<{ paths: Record<string, { post?: Operation }> }>().paths
  t.same(Object.keys(paths).sort(), ['/webhook/alert', '/webhook/alert/{secret}', '/webhook/s/{token}'], 'only the webhook (no /health, /metrics)')
  t.equal(paths['/webhook/s/{token}']?.post?.operationId, 'postWebhookSignalSource', "a signal source's URL")
  const plain = paths['/webhook/alert']?.post
  const withSecret = paths['/webhook/alert/{secret}']?.post
  t.equal(plain?.operationId, 'postWebhookAlert')
  t.equal(withSecret?.operationId, 'postWebhookAlertWithSecret')
  t.same(Object.keys(plain?.requestBody?.content ?? {}).sort(), ['application/json', 'application/x-www-form-urlencoded', 'text/plain'], 'JSON, text and form bodies')
  t.ok(plain?.parameters?.some((parameter) => parameter.name === 'message' && parameter.in === 'query'), 'and the message query parameter')
  t.ok(plain?.parameters?.some((parameter) => parameter.name === 'x-alert-message' && parameter.in === 'header'), 'and the header for an empty body')
  t.ok(withSecret?.parameters?.some((parameter) => parameter.name === 'secret' && parameter.in === 'path'))
  t.same(plain?.security, [], 'public: no session needed')
  t.notMatch(response.body, /docs-test-secret/, 'the secret itself is never in the document')
})

t.test('documenting the webhook does not change it: a text alert is still read as sent', async (t) => {
  const { app } = await build(t)
  const response = await app.inject({ method: 'POST', url: '/webhook/alert', headers: { 'content-type': 'text/plain' }, payload: 'User ID: u-docs\nAction: Buy\nTicker: MNQ1!\nQuantity: 1' })
  t.equal(response.statusCode, 200, response.body)
  t.match(response.json(), { success: true, kind: 'entry' })
})
