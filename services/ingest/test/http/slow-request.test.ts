import t, { type Test } from 'tap'
import { connect, type Socket } from 'node:net'
import { build, eventually } from '../helper.ts'

// Issue 21 item 6: a client trickling its request (one byte at a time, never finishing) is cut at the
// request time-out with 408, instead of holding a connection for ever (Fastify's default is no time-out).
const TIMEOUTS = { HTTP_REQUEST_TIMEOUT_MS: '800', HTTP_HEADERS_TIMEOUT_MS: '400' }

async function listening(t: Test) {
  const { app } = await build(t, TIMEOUTS)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return (app.server.address() as { port: number }).port
}

/** Opens a connection, writes `head`, then one more byte of `trickle` every 100 ms until closed. */
function trickle(port: number, head: string, bytes: string) {
  const state = { closed: false, answer: '', openedAt: Date.now(), closedAt: 0 }
  const socket: Socket = connect(port, '127.0.0.1', () => socket.write(head))
  let sent = 0
  const timer = setInterval(() => {
    if (!socket.destroyed && sent < bytes.length) socket.write(bytes[sent++] ?? '')
  }, 100)
  socket.on('data', (chunk) => (state.answer += chunk.toString()))
  socket.on('error', () => undefined)
  socket.on('close', () => {
    clearInterval(timer)
    state.closed = true
    state.closedAt = Date.now()
  })
  return { state, stop: () => (clearInterval(timer), socket.destroy()) }
}

t.test('a webhook whose body never finishes is answered 408 and closed at the request time-out', async (t) => {
  const port = await listening(t)
  const slow = trickle(port, 'POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n', 'x'.repeat(1000))
  t.teardown(slow.stop)
  await eventually(() => slow.state.closed, 15_000)
  t.match(slow.state.answer, /^HTTP\/1\.1 408 /, '408 Request Timeout')
  const heldMs = slow.state.closedAt - slow.state.openedAt
  t.ok(heldMs >= 700 && heldMs < 3_000, `closed after ${heldMs} ms (time-out 800 ms), though a byte came every 100 ms`)
})

t.test('headers that never finish are cut at the headers time-out', async (t) => {
  const port = await listening(t)
  const slow = trickle(port, 'GET /health HTTP/1.1\r\n', 'X-Slow: ' + 'a'.repeat(500))
  t.teardown(slow.stop)
  await eventually(() => slow.state.closed, 15_000)
  const heldMs = slow.state.closedAt - slow.state.openedAt
  t.ok(heldMs >= 350 && heldMs < 2_000, `closed after ${heldMs} ms (headers time-out 400 ms)`)
})

t.test('a request that arrives in time is served under the same time-outs', async (t) => {
  const port = await listening(t)
  const response = await fetch(`http://127.0.0.1:${port}/health`)
  t.equal(response.status, 200)
})

t.test('the defaults: 30 s for a request, 10 s for its headers, 72 s for an idle keep-alive connection', async (t) => {
  const { app } = await build(t)
  t.equal(app.server.requestTimeout, 30_000)
  t.equal(app.server.headersTimeout, 10_000)
  t.equal(app.server.keepAliveTimeout, 72_000)
})
