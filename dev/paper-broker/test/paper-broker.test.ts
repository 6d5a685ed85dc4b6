import t from 'tap'
import WebSocket from 'ws'
import { formatRequest, parseServerFrame } from '@signals/tradovate-wire'
import { startPaperBroker } from '../src/index.ts'

const account = { name: 'trader', password: 'pw-123456', userId: 7, accountId: 70, accountName: 'DEMO70' }

/** The messages of an `a` frame (responses and events). */
const messages = (frame: string) => {
  const parsed = parseServerFrame(frame)
  return parsed.kind === 'array' ? [...parsed.responses, ...parsed.events] : []
}

/** Opens a socket and collects its frames. */
async function open(url: string) {
  const socket = new WebSocket(url)
  const frames: string[] = []
  socket.on('message', (data) => frames.push(String(data)))
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  const next = async (predicate: (frame: string) => boolean) => {
    const deadline = Date.now() + 5_000
    for (;;) {
      const index = frames.findIndex(predicate)
      if (index >= 0) return frames.splice(index, 1)[0] as string
      if (Date.now() > deadline) throw new Error('no such frame')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
  return { socket, next }
}

const tokenRequest = (restUrl: string, body: unknown) =>
  fetch(`${restUrl}/auth/accesstokenrequest`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

t.test('access token, open frame, authorize, sync request and heartbeats, as Tradovate speaks them', async (t) => {
  const broker = await startPaperBroker({ accounts: [account], heartbeatMs: 50 })
  t.teardown(() => broker.close())
  const response = await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456', appId: 'a', appVersion: '1', cid: 1, sec: 's', deviceId: 'd' })
  t.equal(response.status, 200)
  const token = (await response.json()) as { accessToken: string; userId: number; expirationTime: string }
  t.match(token, { accessToken: String, userId: 7, name: 'trader', userStatus: 'Active' })

  const { socket, next } = await open(broker.wsUrl)
  t.teardown(() => socket.close())
  t.equal(await next((f) => f === 'o'), 'o', 'the open frame comes first')
  socket.send(formatRequest('user/syncrequest', 1, '{}'))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 1, s: 401, d: 'Not authorized' }], 'nothing before authorize')
  socket.send(formatRequest('authorize', 2, 'not-a-token'))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 2, s: 401, d: 'Access is denied' }])
  socket.send(formatRequest('authorize', 3, token.accessToken))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 3, s: 200 }])
  socket.send(formatRequest('user/syncrequest', 4, '{"users":[7]}'))
  const sync = messages(await next((f) => f.startsWith('a')))[0] as { i: number; s: number; d: { accounts: { name: string }[] } }
  t.match(sync, { i: 4, s: 200 })
  t.equal(sync.d.accounts[0]?.name, 'DEMO70')
  t.same(broker.sessions(), ['trader'])
  t.equal(await next((f) => f === 'h'), 'h', 'the server sends heartbeats')
  socket.send('[]')
  socket.send(formatRequest('order/placeorder', 5, '{}'))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 5, s: 404, d: 'Unknown endpoint order/placeorder' }], 'a simulator, not a market')
})

t.test('a wrong login is answered like Tradovate: 200 with errorText; bad bodies get a 400', async (t) => {
  const broker = await startPaperBroker({ accounts: [account] })
  t.teardown(() => broker.close())
  const wrong = await tokenRequest(broker.restUrl, { name: 'trader', password: 'nope' })
  t.equal(wrong.status, 200)
  t.same(await wrong.json(), { errorText: 'Incorrect username or password. Please try again.' })
  const missing = await tokenRequest(broker.restUrl, { name: 'trader' })
  t.equal(missing.status, 400)
  const malformed = await fetch(`${broker.restUrl}/auth/accesstokenrequest`, { method: 'POST', body: '{' })
  t.equal(malformed.status, 400)
  t.same(broker.tokenRequests, [{ name: 'trader', ok: false }], 'requests are recorded without passwords')
})
