import t from 'tap'
import { build } from './helper.ts'

t.test('GET /health answers while the process runs', async (t) => {
  const { app } = await build(t)
  const response = await app.inject({ method: 'GET', url: '/health' })
  t.equal(response.statusCode, 200)
  t.match(response.json(), { status: 'ok', service: 'gateway' })
})

t.test('GET /ready reports each dependency', async (t) => {
  const { app } = await build(t)
  const response = await app.inject({ method: 'GET', url: '/ready' })
  t.equal(response.statusCode, 200)
  t.same(response.json(), { status: 'ready', service: 'gateway', checks: { redis: true } })
})

t.test('GET /metrics serves Prometheus text with request counts', async (t) => {
  const { app } = await build(t)
  await app.inject({ method: 'GET', url: '/health' })
  const response = await app.inject({ method: 'GET', url: '/metrics' })
  t.equal(response.statusCode, 200)
  t.match(response.headers['content-type'], /text\/plain/)
  t.match(response.body, /http_requests_total\{[^}]*route="\/health"[^}]*\} 1/)
})
