import t from 'tap'
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import WebSocket from 'ws'
import { Buckets, UserActivityV1, contract, feedStatusKey, userActivitySubject, type UserActivity } from '@signals/contracts'
import { openBucket } from '@signals/bus'
import { SESSION_KEY_PREFIX, mintSession, sessionSettings, writeUserStatus, type UserStatus } from '@signals/sessions'
import { deleteNamespaceStreams, testNamespace } from '@signals/test-support'
import { CloseCode } from '../../src/live/live-codes.ts'
import { build, INTERNAL_AUTH_SECRET, PUBLIC_URL, sessionIdOf, startEcho } from '../helper.ts'

/** Pings every 400 ms here (30 s in production), so several heartbeats pass within a test; long enough that
 * a busy machine stalling this process (client and server share it) does not miss a pong. */
const HEARTBEAT_MS = 400
const namespace = testNamespace()
t.teardown(() => deleteNamespaceStreams(namespace))
const settingsEcho = await startEcho(t, 'settings')
const { app, config } = await build(t, { BUS_NAMESPACE: namespace, PUBLIC_URL, LIVE_RECHECK_MS: '200', LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS), SETTINGS_URL: settingsEcho.url, INTERNAL_AUTH_SECRET })
await app.listen({ port: 0, host: '127.0.0.1' })
const liveUrl = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/live`
const settings = sessionSettings(config)
const checkNotice = contract(UserActivityV1)

const approved = (email: string): UserStatus => ({ email, role: 'trader', approved: true, banned: false })
const newUserId = () => `live-${randomBytes(5).toString('hex')}`

/** A browser-like socket: our origin, the session cookie. Resolves once open, or with the refusal's status. */
function connect(cookie: string | undefined, origin = PUBLIC_URL, { autoPong = true } = {}) {
  const socket = new WebSocket(liveUrl, { headers: { origin, ...(cookie ? { cookie } : {}) }, autoPong })
  // A refused or closed handshake shows in `opened` and `closed`; the error event would only repeat it.
  socket.on('error', () => undefined)
  const notices: UserActivity[] = []
  socket.on('message', (data: Buffer) => {
    const notice = JSON.parse(data.toString('utf8')) as unknown
    if (checkNotice.check(notice)) notices.push(notice)
  })
  const opened = new Promise<{ open: true } | { open: false; status: number }>((resolve) => {
    socket.once('open', () => resolve({ open: true }))
    socket.once('unexpected-response', (_request, response) => resolve({ open: false, status: response.statusCode ?? 0 }))
  })
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)))
  const next = async (kind: UserActivity['kind']) => {
    while (!notices.some((notice) => notice.kind === kind)) {
      if (socket.readyState !== WebSocket.OPEN) throw new Error(`socket closed (${await closed}) while waiting for a ${kind} notice`)
      await Promise.race([new Promise((resolve) => socket.once('message', resolve)), closed])
    }
    return notices.find((notice) => notice.kind === kind) as UserActivity
  }
  let pings = 0
  socket.on('ping', () => pings++)
  /** Resolves once the server has pinged `count` times; rejects if the socket closes first. */
  const pinged = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pings < count) return
        socket.off('ping', check)
        resolve()
      }
      socket.on('ping', check)
      socket.once('close', (code) => reject(new Error(`socket closed with ${code} after ${pings} pings`)))
      check()
    })
  t.teardown(() => socket.terminate())
  return { socket, opened, closed, notices, next, pinged }
}

const publishNotice = (userId: string, kind: UserActivity['kind'], id: string | null) => {
  const notice: UserActivity = { version: 1, userId, kind, id, at: new Date().toISOString() }
  app.bus.nc.publish(app.bus.subject(userActivitySubject(userId)), JSON.stringify(notice))
}

t.test('the upgrade is refused without a session, from another origin, for a pending or banned user, and as a plain GET', async (t) => {
  t.same(await connect(undefined).opened, { open: false, status: 401 }, 'no session: 401')
  const userId = newUserId()
  const cookie = await mintSession(app.redis, settings, userId, approved(`${userId}@example.com`))
  t.same(await connect(cookie, 'https://evil.example').opened, { open: false, status: 403 }, 'foreign origin: 403')
  const pendingId = newUserId()
  const pending = await mintSession(app.redis, settings, pendingId, { ...approved(`${pendingId}@example.com`), approved: false })
  t.same(await connect(pending).opened, { open: false, status: 403 }, 'pending: 403')
  const bannedId = newUserId()
  const banned = await mintSession(app.redis, settings, bannedId, { ...approved(`${bannedId}@example.com`), banned: true })
  t.same(await connect(banned).opened, { open: false, status: 403 }, 'banned: 403')
  const plain = await app.inject({ method: 'GET', url: '/api/live', headers: { cookie } })
  t.equal(plain.statusCode, 426, 'a plain GET is told to upgrade')
  t.match(plain.json(), { success: false, error: /WebSocket/ })
})

t.test("notices reach the user's own sockets only, in every tab", async (t) => {
  const alice = newUserId()
  const bob = newUserId()
  const aliceCookie = await mintSession(app.redis, settings, alice, approved(`${alice}@example.com`))
  const bobCookie = await mintSession(app.redis, settings, bob, approved(`${bob}@example.com`))
  const aliceTabs = [connect(aliceCookie), connect(aliceCookie)]
  const bobTab = connect(bobCookie)
  for (const tab of [...aliceTabs, bobTab]) t.same(await tab.opened, { open: true })

  publishNotice(bob, 'trade', '12')
  publishNotice(alice, 'alert', '7')
  for (const tab of aliceTabs) t.match(await tab.next('alert'), { userId: alice, kind: 'alert', id: '7' }, 'each tab of alice hears her alert')
  t.match(await bobTab.next('trade'), { userId: bob, kind: 'trade', id: '12' })
  t.notOk(aliceTabs.some((tab) => tab.notices.some((notice) => notice.userId === bob)), "alice never hears of bob's trade")
})

t.test('a feed-status change is pushed as a status notice', async (t) => {
  const userId = newUserId()
  const tab = connect(await mintSession(app.redis, settings, userId, approved(`${userId}@example.com`)))
  t.same(await tab.opened, { open: true })
  const bucket = await openBucket(app.bus, Buckets.feedStatus)
  await bucket.put(feedStatusKey(userId), JSON.stringify({ state: 'connected' }))
  t.match(await tab.next('status'), { userId, kind: 'status', id: null })
})

t.test('a ban, a revoked approval and an ended session close the socket with their own code', async (t) => {
  const tabs = await Promise.all(
    ['banned', 'revoked', 'ended'].map(async (what) => {
      const userId = newUserId()
      const cookie = await mintSession(app.redis, settings, userId, approved(`${userId}@example.com`))
      const tab = connect(cookie)
      t.same(await tab.opened, { open: true }, `${what}: open at first`)
      return { what, userId, cookie, tab }
    }),
  )
  const [banned, revoked, ended] = tabs as [(typeof tabs)[number], (typeof tabs)[number], (typeof tabs)[number]]
  await writeUserStatus(app.redis, banned.userId, { ...approved(`${banned.userId}@example.com`), banned: true })
  await writeUserStatus(app.redis, revoked.userId, { ...approved(`${revoked.userId}@example.com`), approved: false })
  await app.redis.del(SESSION_KEY_PREFIX + sessionIdOf(ended.cookie))
  t.equal(await banned.tab.closed, CloseCode.banned, 'banned: closed 4403')
  t.equal(await revoked.tab.closed, CloseCode.pending, 'revoked: closed 4409')
  t.equal(await ended.tab.closed, CloseCode.signedOut, 'session ended: closed 4401')
})

t.test('a settings save through the gateway is announced as a status notice; a read is not', async (t) => {
  const userId = newUserId()
  const cookie = await mintSession(app.redis, settings, userId, approved(`${userId}@example.com`))
  const tab = connect(cookie)
  t.same(await tab.opened, { open: true })
  const read = await app.inject({ method: 'GET', url: '/api/trading-settings', headers: { cookie } })
  t.equal(read.statusCode, 200)
  publishNotice(userId, 'alert', 'marker')
  await tab.next('alert')
  t.notOk(tab.notices.some((notice) => notice.kind === 'status'), 'a read announces nothing')
  const save = await app.inject({ method: 'POST', url: '/api/trading-settings', headers: { cookie, 'content-type': 'application/json' }, payload: '{}' })
  t.equal(save.statusCode, 200)
  t.match(await tab.next('status'), { userId, kind: 'status' }, 'the save is announced')
})

t.test("an account write (the primary's switches are the live-trading setting) is announced too (issue 22)", async (t) => {
  const userId = newUserId()
  const cookie = await mintSession(app.redis, settings, userId, approved(`${userId}@example.com`))
  const tab = connect(cookie)
  t.same(await tab.opened, { open: true })
  const id = '00000000-0000-4000-8000-000000000001'
  const change = await app.inject({ method: 'PATCH', url: `/api/accounts/${id}`, headers: { cookie, 'content-type': 'application/json' }, payload: '{"liveTrading":true}' })
  t.equal(change.statusCode, 200)
  t.match(await tab.next('status'), { userId, kind: 'status' }, 'the change is announced')
})

t.test('a socket that answers pings stays open past several heartbeats and still hears notices (issue 25)', async (t) => {
  const userId = newUserId()
  const tab = connect(await mintSession(app.redis, settings, userId, approved(`${userId}@example.com`)))
  t.same(await tab.opened, { open: true })
  await tab.pinged(4)
  t.equal(tab.socket.readyState, WebSocket.OPEN, 'still open after four heartbeats')
  publishNotice(userId, 'trade', 'after-heartbeats')
  t.match(await tab.next('trade'), { userId, kind: 'trade', id: 'after-heartbeats' }, 'the notice arrives afterwards')
})

t.test('a socket that stops answering pings is dropped at the next heartbeat', async (t) => {
  const userId = newUserId()
  const tab = connect(await mintSession(app.redis, settings, userId, approved(`${userId}@example.com`)), PUBLIC_URL, { autoPong: false })
  t.same(await tab.opened, { open: true })
  t.equal(await tab.closed, 1006, 'terminated: the client never answered')
})

t.test('uPlot is served from the installed package, and nothing else from it', async (t) => {
  const script = await app.inject({ method: 'GET', url: '/vendor/uplot/uPlot.iife.min.js' })
  t.equal(script.statusCode, 200)
  t.match(script.body, /uPlot/)
  const css = await app.inject({ method: 'GET', url: '/vendor/uplot/uPlot.min.css' })
  t.equal(css.statusCode, 200)
  const other = await app.inject({ method: 'GET', url: '/vendor/uplot/uPlot.cjs.js' })
  t.equal(other.statusCode, 404, 'only the two browser files')
})
