import t from 'tap'
import { connect, type Socket } from 'node:net'
import { build, eventually } from '../helper.ts'

// Issue 21 item 6: one client address holds at most HTTP_MAX_CONNECTIONS_PER_ADDRESS open connections;
// one more is closed as it opens, and a slot freed is usable again.
function open(port: number) {
  const state = { connected: false, closed: false }
  const socket: Socket = connect(port, '127.0.0.1', () => (state.connected = true))
  socket.on('error', () => undefined)
  socket.on('close', () => (state.closed = true))
  return { socket, state }
}

async function healthOver(connection: ReturnType<typeof open>): Promise<string> {
  let answer = ''
  connection.socket.on('data', (chunk) => (answer += chunk.toString()))
  connection.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n')
  await eventually(() => answer.includes('\r\n\r\n') || connection.state.closed)
  return answer
}

t.test('a third connection from the same address is closed; the first two are served; a freed slot is reused', async (t) => {
  const { app } = await build(t, { HTTP_MAX_CONNECTIONS_PER_ADDRESS: '2' })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  const first = open(port)
  const second = open(port)
  await eventually(() => first.state.connected && second.state.connected)
  t.match(await healthOver(first), /^HTTP\/1\.1 200 /, 'the first connection is served')
  const third = open(port)
  t.teardown(() => [first, second, third].forEach((connection) => connection.socket.destroy()))
  await eventually(() => third.state.closed)
  t.ok(third.state.closed, 'the third connection was closed as it opened')
  t.notOk(first.state.closed || second.state.closed, 'the two within the limit stay open')
  t.match(await healthOver(second), /^HTTP\/1\.1 200 /, 'the second is still served')

  first.socket.destroy()
  await eventually(() => first.state.closed)
  const fourth = open(port)
  t.teardown(() => fourth.socket.destroy())
  await eventually(() => fourth.state.connected)
  t.match(await healthOver(fourth), /^HTTP\/1\.1 200 /, 'a connection in the freed slot is served')
})

t.test('no limit by default (behind a proxy every client shares its address)', async (t) => {
  const { config } = await build(t)
  t.equal(config.HTTP_MAX_CONNECTIONS_PER_ADDRESS, 0)
})
