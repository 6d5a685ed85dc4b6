import t from 'tap'
import { build } from './helper.ts'

t.test('GET /health answers while the process runs', async (t) => {
  const { app } = await build(t)
  const response = await app.inject({ method: 'GET', url: '/health' })
  t.equal(response.statusCode, 200)
  t.match(response.json(), { status: 'ok', service: 'broker-connector' })
})

t.test('GET /ready reports each dependency', async (t) => {
  const { app } = await build(t)
  const response = await app.inject({ method: 'GET', url: '/ready' })
  t.equal(response.statusCode, 200)
  t.same(response.json(), { status: 'ready', service: 'broker-connector', checks: { postgres: true, nats: true } })
})

t.test('GET /metrics serves Prometheus text with request counts', async (t) => {
  const { app } = await build(t)
  await app.inject({ method: 'GET', url: '/health' })
  const response = await app.inject({ method: 'GET', url: '/metrics' })
  t.equal(response.statusCode, 200)
  t.match(response.headers['content-type'], /text\/plain/)
  t.match(response.body, /http_requests_total\{[^}]*route="\/health"[^}]*\} 1/)
})

t.test('the DEAD_LETTERS stream takes its byte bound from DEAD_LETTERS_STREAM_MAX_BYTES (issue 22 item 7)', async (t) => {
  const { app } = await build(t, { DEAD_LETTERS_STREAM_MAX_BYTES: String(5 * 1024 * 1024) })
  const info = await app.bus.jsm.streams.info(app.bus.stream('DEAD_LETTERS'))
  t.equal(info.config.max_bytes, 5 * 1024 * 1024)
})

t.test('DEAD_LETTERS_STREAM_MAX_BYTES below 1 MiB is refused at start, named', async (t) => {
  await t.rejects(build(t, { DEAD_LETTERS_STREAM_MAX_BYTES: '1000' }), /DEAD_LETTERS_STREAM_MAX_BYTES/)
})
