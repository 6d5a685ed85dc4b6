import t from 'tap'
import { connect } from 'node:net'
import { eventually } from '@signals/test-support'
import { build } from './helper.ts'

// Issue 21 item 6: the gateway is public too; a request whose body never finishes is cut with 408.
t.test('a request whose body never finishes is answered 408 and closed at the request time-out', async (t) => {
  const { app } = await build(t, { HTTP_REQUEST_TIMEOUT_MS: '800', HTTP_HEADERS_TIMEOUT_MS: '400' })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  const state = { closed: false, answer: '' }
  const openedAt = Date.now()
  let closedAt = 0
  const socket = connect(port, '127.0.0.1', () => socket.write('POST /no-such-page HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n'))
  const timer = setInterval(() => socket.write('x'), 100)
  socket.on('data', (chunk) => (state.answer += chunk.toString()))
  socket.on('error', () => undefined)
  socket.on('close', () => ((state.closed = true), (closedAt = Date.now()), clearInterval(timer)))
  t.teardown(() => (clearInterval(timer), socket.destroy()))
  await eventually(() => state.closed, { timeoutMs: 5_000, what: 'the gateway to close the slow request' })
  t.match(state.answer, /^HTTP\/1\.1 408 /, '408 Request Timeout')
  t.ok(closedAt - openedAt >= 700 && closedAt - openedAt < 3_000, `closed after ${closedAt - openedAt} ms (time-out 800 ms)`)
})

t.test('the defaults: 30 s for a request, 10 s for its headers, 72 s for an idle keep-alive connection', async (t) => {
  const { app } = await build(t)
  t.same([app.server.requestTimeout, app.server.headersTimeout, app.server.keepAliveTimeout], [30_000, 10_000, 72_000])
})
