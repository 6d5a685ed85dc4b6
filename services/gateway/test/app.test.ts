import t from 'tap'
import { build, METRICS_TOKEN } from './helper.ts'

const internal = { authorization: `Bearer ${METRICS_TOKEN}` }

t.test('GET /health answers while the process runs', async (t) => {
  const { app } = await build(t)
  const response = await app.inject({ method: 'GET', url: '/health' })
  t.equal(response.statusCode, 200)
  t.match(response.json(), { status: 'ok', service: 'gateway' })
})

t.test('GET /ready reports each dependency to the metrics token holder only', async (t) => {
  const { app } = await build(t)
  const open = await app.inject({ method: 'GET', url: '/ready' })
  t.equal(open.statusCode, 200)
  t.same(open.json(), { status: 'ready', service: 'gateway' }, 'the public learns ready or not, no detail')
  const wrong = await app.inject({ method: 'GET', url: '/ready', headers: { authorization: 'Bearer not-the-token' } })
  t.same(wrong.json(), { status: 'ready', service: 'gateway' })
  const response = await app.inject({ method: 'GET', url: '/ready', headers: internal })
  t.equal(response.statusCode, 200)
  t.same(response.json(), { status: 'ready', service: 'gateway', checks: { redis: true, nats: true } }, 'the bus carries the live pages')
})

t.test('GET /metrics is refused without the metrics token (issue 15 point 6)', async (t) => {
  const { app } = await build(t)
  for (const headers of [{}, { authorization: 'Bearer not-the-token' }, { authorization: METRICS_TOKEN }]) {
    const response = await app.inject({ method: 'GET', url: '/metrics', headers })
    t.equal(response.statusCode, 401)
    t.same(response.json(), { success: false, error: 'Metrics token required' })
  }
  const { app: unset } = await build(t, { METRICS_TOKEN: '' })
  t.equal((await unset.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer ' } })).statusCode, 401, 'no token configured: never served')
})

t.test('GET /metrics serves Prometheus text with request counts', async (t) => {
  const { app } = await build(t)
  await app.inject({ method: 'GET', url: '/health' })
  const response = await app.inject({ method: 'GET', url: '/metrics', headers: internal })
  t.equal(response.statusCode, 200)
  t.match(response.headers['content-type'], /text\/plain/)
  t.match(response.body, /http_requests_total\{[^}]*route="\/health"[^}]*\} 1/)
})
