import t from 'tap'
import { BANNED_SESSION_PREFIX, createRedisClient, indexSession, readUserStatus, userSessionsKey, writeUserStatus } from '@signals/sessions'
import { TEST_REDIS_URL } from '@signals/test-support'
import { as, build, insertUser, unique } from './helper.ts'

const redis = createRedisClient(TEST_REDIS_URL)
await redis.connect()
t.teardown(() => redis.close())

const { app, config, adminEmail } = await build(t)
const adminId = `admin-${unique()}`
const asAdmin = as(config, { userId: adminId, email: adminEmail, role: 'admin' })
const asTrader = as(config, { userId: `trader-${unique()}`, email: 'trader@example.com', role: 'trader' })
await insertUser(app, { userId: adminId, email: adminEmail, approved: true, role: 'admin' })

t.test('every admin route: 401 without the internal header, 403 for a non-administrator', async (t) => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/admin/users'],
    ['POST', '/api/admin/users/x/approve'],
    ['POST', '/api/admin/users/x/revoke'],
    ['GET', '/api/admin/bans'],
    ['POST', '/api/admin/bans', { email: 'a@b.c' }],
    ['DELETE', '/api/admin/bans/a@b.c'],
    ['GET', '/api/admin/audit'],
  ]
  for (const [method, url, payload] of routes) {
    const anonymous = await app.inject({ method: method as 'GET', url, payload: payload as object })
    t.equal(anonymous.statusCode, 401, `${method} ${url} without identity`)
    const trader = await app.inject({ method: method as 'GET', url, headers: asTrader, payload: payload as object })
    t.equal(trader.statusCode, 403, `${method} ${url} as a trader`)
    t.same(trader.json(), { success: false, error: 'Administrator only' })
  }
  const formerAdmin = as(config, { userId: 'former', email: 'former-admin@example.com', role: 'admin' })
  const former = await app.inject({ method: 'GET', url: '/api/admin/users', headers: formerAdmin })
  t.equal(former.statusCode, 403, 'role admin but no longer in ADMIN_EMAIL: refused')
  const caseless = await app.inject({ method: 'GET', url: '/api/admin/users', headers: as(config, { userId: adminId, email: adminEmail.toUpperCase(), role: 'admin' }) })
  t.equal(caseless.statusCode, 200, 'ADMIN_EMAIL matches case-insensitively')
})

t.test('GET /api/admin/users: paged, filtered by approval, searched by e-mail', async (t) => {
  const tag = unique()
  for (let i = 0; i < 5; i++) {
    await insertUser(app, {
      userId: `list-${tag}-${i}`,
      email: `List.${i}.${tag}@Example.com`,
      approved: i < 2,
      createdAt: new Date(Date.now() - i * 60_000).toISOString(),
    })
  }
  await insertUser(app, { userId: `odd-${tag}`, email: `odd_100%${tag}@example.com` })
  const list = async (query: string) => {
    const response = await app.inject({ method: 'GET', url: `/api/admin/users?${query}`, headers: asAdmin })
    t.equal(response.statusCode, 200, query)
    return response.json<{ success: boolean; users: { userId: string; email: string; approved: boolean; banned: boolean }[]; nextCursor: string | null }>()
  }
  const all = await list(`search=${tag}`)
  t.equal(all.success, true)
  t.equal(all.users.length, 6)
  t.equal(all.nextCursor, null, 'one page holds them all')
  t.same(all.users.map((u) => u.userId).filter((id) => id.startsWith('list-')), [0, 1, 2, 3, 4].map((i) => `list-${tag}-${i}`), 'newest first')
  t.match(all.users[0], { userId: String, email: String, name: null, approved: Boolean, role: 'trader', banned: false, createdAt: String, updatedAt: String })

  t.equal((await list(`search=${tag}&status=pending`)).users.length, 4)
  const approved = await list(`search=${tag}&status=approved`)
  t.same(approved.users.map((u) => u.userId).sort(), [`list-${tag}-0`, `list-${tag}-1`])
  t.equal((await list(`search=list.3.${tag.toUpperCase()}`)).users.length, 1, 'search ignores case')
  t.same((await list(`search=_100%25${tag}`)).users.map((u) => u.userId), [`odd-${tag}`], '% and _ match themselves')
  t.equal((await list(`search=x%25${tag}`)).users.length, 0)

  const page1 = await list(`search=.${tag}@&status=all&limit=2`)
  t.type(page1.nextCursor, 'string', 'a full page names the next one')
  const page2 = await list(`search=.${tag}@&status=all&limit=2&before=${page1.nextCursor}`)
  const page3 = await list(`search=.${tag}@&status=all&limit=2&before=${page2.nextCursor}`)
  t.equal(page1.users.length, 2)
  t.equal(page2.users.length, 2)
  t.equal(page3.users.length, 1)
  t.equal(page3.nextCursor, null, 'the last page says so')
  t.same([...page1.users, ...page2.users, ...page3.users].map((u) => u.userId), [0, 1, 2, 3, 4].map((i) => `list-${tag}-${i}`), 'pages follow on, newest first, without overlap')

  const bad = await app.inject({ method: 'GET', url: '/api/admin/users?limit=1000', headers: asAdmin })
  t.equal(bad.statusCode, 400)
  t.match(bad.json(), { success: false, error: /limit/ })
  const badCursor = await app.inject({ method: 'GET', url: '/api/admin/users?before=page-2', headers: asAdmin })
  t.equal(badCursor.statusCode, 400)
  t.match(badCursor.json(), { success: false, error: /before/ })
  t.equal((await app.inject({ method: 'GET', url: '/api/admin/users?status=weird', headers: asAdmin })).statusCode, 400)
})

t.test('GET /api/admin/users: sign-ups within one millisecond page in order (the cursor keeps microseconds)', async (t) => {
  const tag = unique()
  const at = '2026-01-02T03:04:05.006'
  for (const [i, micros] of [[0, '999'], [1, '500'], [2, '500'], [3, '001']] as const) {
    await insertUser(app, { userId: `micro-${tag}-${i}`, email: `micro.${i}.${tag}@example.com`, createdAt: `${at}${micros}Z` })
  }
  const ids: string[] = []
  let before = ''
  for (let page = 0; page < 4; page++) {
    const response = await app.inject({ method: 'GET', url: `/api/admin/users?search=micro.&limit=1${before}`, headers: asAdmin })
    const body = response.json<{ users: { userId: string }[]; nextCursor: string | null }>()
    ids.push(...body.users.map((u) => u.userId).filter((id) => id.includes(tag)))
    before = `&before=${body.nextCursor}`
  }
  t.same(ids, [0, 1, 2, 3].map((i) => `micro-${tag}-${i}`), 'newest first, equal times by user id, none skipped or repeated')
})

t.test('approve and revoke: the row, the status the gateway reads, the audit log', async (t) => {
  const userId = `approve-${unique()}`
  const email = `approve-${unique()}@example.com`
  await insertUser(app, { userId, email })
  await writeUserStatus(redis, userId, { email, role: 'trader', approved: false, banned: false })

  const approved = await app.inject({ method: 'POST', url: `/api/admin/users/${userId}/approve`, headers: asAdmin })
  t.equal(approved.statusCode, 200)
  t.match(approved.json(), { success: true, user: { userId, email, approved: true, role: 'trader', banned: false } })
  t.same(await readUserStatus(redis, userId), { email, role: 'trader', approved: true, banned: false })

  const revoked = await app.inject({ method: 'POST', url: `/api/admin/users/${userId}/revoke`, headers: asAdmin, payload: { reason: 'left the desk' } })
  t.equal(revoked.statusCode, 200)
  t.match(revoked.json(), { success: true, user: { userId, approved: false } })
  t.same(await readUserStatus(redis, userId), { email, role: 'trader', approved: false, banned: false })

  const audit = await app.inject({ method: 'GET', url: '/api/admin/audit?limit=100', headers: asAdmin })
  const entries = audit.json<{ entries: { actorUserId: string; action: string; target: string; reason: string | null }[] }>().entries
  t.match(entries.filter((e) => e.target === userId), [
    { actorUserId: adminId, action: 'revoke', target: userId, reason: 'left the desk' },
    { actorUserId: adminId, action: 'approve', target: userId, reason: null },
  ])
})

t.test('the audit log names people by e-mail: the actor, and the user an approval or revocation was about (issue 25)', async (t) => {
  const userId = `audited-${unique()}`
  const email = `audited-${unique()}@example.com`
  await insertUser(app, { userId, email })
  t.equal((await app.inject({ method: 'POST', url: `/api/admin/users/${userId}/approve`, headers: asAdmin })).statusCode, 200)
  const banned = `banned-${unique()}@example.com`
  t.equal((await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload: { email: banned } })).statusCode, 201)
  const audit = await app.inject({ method: 'GET', url: '/api/admin/audit?limit=100', headers: asAdmin })
  const entries = audit.json<{ entries: { action: string; target: string; actorEmail: string | null; targetEmail: string | null }[] }>().entries
  t.match(entries.find((e) => e.target === userId), { action: 'approve', actorEmail: adminEmail, targetEmail: email }, 'approve: both e-mails')
  t.match(entries.find((e) => e.target === banned), { action: 'ban', actorEmail: adminEmail, targetEmail: banned }, 'ban: the target is the e-mail')
  const byEmail = await app.inject({ method: 'GET', url: `/api/admin/audit?limit=100&actor=${encodeURIComponent(adminEmail.toUpperCase())}`, headers: asAdmin })
  t.ok(byEmail.json<{ entries: { target: string }[] }>().entries.some((e) => e.target === userId), 'the actor filter takes an e-mail too')
  const nobody = await app.inject({ method: 'GET', url: '/api/admin/audit?limit=100&actor=nobody%40example.com', headers: asAdmin })
  t.same(nobody.json<{ entries: unknown[] }>().entries, [])
  // Other tests count the bans in place.
  t.equal((await app.inject({ method: 'DELETE', url: `/api/admin/bans/${encodeURIComponent(banned)}`, headers: asAdmin })).statusCode, 200)
})

t.test('approve an unknown user: 404, nothing audited', async (t) => {
  const ghost = `ghost-${unique()}`
  const response = await app.inject({ method: 'POST', url: `/api/admin/users/${ghost}/approve`, headers: asAdmin })
  t.equal(response.statusCode, 404)
  t.same(response.json(), { success: false, error: 'User not found' })
  const audit = await app.inject({ method: 'GET', url: '/api/admin/audit?limit=100', headers: asAdmin })
  t.notOk(audit.json<{ entries: { target: string }[] }>().entries.some((e) => e.target === ghost))
})

t.test('an administrator by ADMIN_EMAIL cannot be revoked or banned through the API', async (t) => {
  const revoke = await app.inject({ method: 'POST', url: `/api/admin/users/${adminId}/revoke`, headers: asAdmin })
  t.equal(revoke.statusCode, 409)
  t.match(revoke.json(), { success: false, error: /ADMIN_EMAIL/ })
  const ban = await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload: { email: adminEmail.toUpperCase() } })
  t.equal(ban.statusCode, 409)
  const { rows } = await (await import('@signals/db')).sql<{ approved: boolean }>`SELECT approved FROM users WHERE user_id = ${adminId}`.execute(app.db)
  t.equal(rows[0]?.approved, true, 'still approved (the refused revoke rolled back)')
})

t.test('a ban: listed, marks the user banned, ends every session at once; lifting it', async (t) => {
  const userId = `banned-${unique()}`
  const email = `Banned-${unique()}@Example.com`
  await insertUser(app, { userId, email, approved: true })
  await writeUserStatus(redis, userId, { email, role: 'trader', approved: true, banned: false })
  const sessionIds = ['s1', 's2'].map((s) => `${s}-${unique()}`)
  for (const sessionId of sessionIds) {
    await redis.set(`sess:${sessionId}`, JSON.stringify({ userId }))
    await indexSession(redis, userId, sessionId, 3_600_000)
  }

  const response = await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload: { email: `  ${email.toUpperCase()} `, reason: ' Chargebacks ' } })
  t.equal(response.statusCode, 201)
  t.match(response.json(), { success: true, ban: { email: email.toLowerCase(), reason: 'Chargebacks' }, sessionsEnded: 2 })
  t.equal(await redis.exists(userSessionsKey(userId)), 0, 'session index gone')
  t.same(await readUserStatus(redis, userId), { email, role: 'trader', approved: true, banned: true, banReason: 'Chargebacks' }, 'the reason travels with the status')
  for (const sessionId of sessionIds) t.equal(await redis.get(`${BANNED_SESSION_PREFIX}${sessionId}`), userId, 'each ended session is remembered as ended by the ban')

  const again = await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload: { email, reason: 'Chargebacks, twice' } })
  t.equal(again.statusCode, 200, 're-banning updates the reason')
  t.equal((await readUserStatus(redis, userId))?.banReason, 'Chargebacks, twice', 'in the status too')
  t.match(again.json(), { ban: { reason: 'Chargebacks, twice' }, sessionsEnded: 0 })

  const bans = await app.inject({ method: 'GET', url: '/api/admin/bans', headers: asAdmin })
  t.match(bans.json(), { success: true, bans: [{ email: email.toLowerCase(), reason: 'Chargebacks, twice', createdAt: String }], nextCursor: null })
  t.equal(bans.json().bans.length, 1, 'one ban, kept in place by the re-ban')
  const users = await app.inject({ method: 'GET', url: `/api/admin/users?search=${encodeURIComponent(email)}`, headers: asAdmin })
  t.match(users.json(), { users: [{ userId, banned: true }] })

  const lifted = await app.inject({ method: 'DELETE', url: `/api/admin/bans/${encodeURIComponent(email)}`, headers: asAdmin })
  t.equal(lifted.statusCode, 200)
  t.same(lifted.json(), { success: true, email: email.toLowerCase() })
  t.same(await readUserStatus(redis, userId), { email, role: 'trader', approved: true, banned: false })
  const twice = await app.inject({ method: 'DELETE', url: `/api/admin/bans/${encodeURIComponent(email)}`, headers: asAdmin })
  t.equal(twice.statusCode, 404)
  t.same(twice.json(), { success: false, error: 'E-mail is not banned' })

  const audit = await app.inject({ method: 'GET', url: '/api/admin/audit?action=ban', headers: asAdmin })
  t.match(audit.json(), { entries: [{ action: 'ban', target: email.toLowerCase(), reason: 'Chargebacks, twice' }, { action: 'ban', reason: 'Chargebacks' }] })
})

t.test("a ban records the account's sub, so a changed e-mail stays banned (issue 15 point 7)", async (t) => {
  const userId = `sub-banned-${unique()}`
  const email = `sub-${unique()}@example.com`
  await insertUser(app, { userId, email, approved: true })
  const response = await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload: { email, reason: 'Fraud' } })
  t.equal(response.statusCode, 201)
  const { sql } = await import('@signals/db')
  const { rows } = await sql<{ sub: string | null }>`SELECT sub FROM banned_emails WHERE email = ${email}`.execute(app.db)
  t.same(rows, [{ sub: userId }], 'the account is recorded with the e-mail')
  const renamed = `renamed-${unique()}@example.com`
  await sql`UPDATE users SET email = ${renamed} WHERE user_id = ${userId}`.execute(app.db)
  const users = await app.inject({ method: 'GET', url: `/api/admin/users?search=${encodeURIComponent(renamed)}`, headers: asAdmin })
  t.match(users.json(), { users: [{ userId, email: renamed, banned: true }] }, 'still shown banned under its new e-mail')
})

t.test('a ban of an e-mail nobody used yet is kept for their first sign-in', async (t) => {
  const email = `future-${unique()}@example.com`
  const response = await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload: { email } })
  t.equal(response.statusCode, 201)
  t.match(response.json(), { ban: { email, reason: null }, sessionsEnded: 0 })
})

t.test('bad ban requests get a clear 400', async (t) => {
  for (const payload of [{}, { email: 'not-an-email' }, { email: 'a@b.c', reason: 'x'.repeat(1001) }, { email: 'a@b.c', extra: 1 }, { email: `${'x'.repeat(250)}@example.com` }]) {
    const response = await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload })
    t.equal(response.statusCode, 400, JSON.stringify(payload).slice(0, 60))
    t.match(response.json(), { success: false, error: String })
  }
  const notJson = await app.inject({ method: 'POST', url: '/api/admin/bans', headers: { ...asAdmin, 'content-type': 'application/json' }, payload: '{"email":' })
  t.equal(notJson.statusCode, 400)
})

t.test('the bans and the audit log page by cursor; a bad cursor or limit is a 400 naming it', async (t) => {
  const emails = [0, 1, 2].map((i) => `paged-${i}-${unique()}@example.com`)
  for (const email of emails) t.equal((await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload: { email } })).statusCode, 201)
  const bansPage = async (query: string) => (await app.inject({ method: 'GET', url: `/api/admin/bans?${query}`, headers: asAdmin })).json<{ bans: { email: string }[]; nextCursor: string | null }>()
  const first = await bansPage('limit=2')
  t.same(first.bans.map((b) => b.email), [emails[2], emails[1]], 'newest ban first')
  const second = await bansPage(`limit=2&before=${first.nextCursor}`)
  t.same(second.bans.map((b) => b.email)[0], emails[0], 'the next page goes on where the first ended')

  const auditPage = async (query: string) => (await app.inject({ method: 'GET', url: `/api/admin/audit?action=ban&${query}`, headers: asAdmin })).json<{ entries: { id: number; target: string }[]; nextCursor: string | null }>()
  const newest = await auditPage('limit=2')
  t.same(newest.entries.map((e) => e.target), [emails[2], emails[1]])
  t.equal(newest.nextCursor, String(newest.entries[1]?.id), 'the cursor is the last entry')
  const older = await auditPage(`limit=2&before=${newest.nextCursor}`)
  t.equal(older.entries[0]?.target, emails[0])
  t.ok(older.entries.every((e) => e.id < (newest.entries[1]?.id ?? 0)), 'only older entries')

  for (const url of ['/api/admin/bans?before=abc', '/api/admin/bans?before=0', '/api/admin/audit?before=-1', '/api/admin/audit?before=1.5']) {
    const response = await app.inject({ method: 'GET', url, headers: asAdmin })
    t.equal(response.statusCode, 400, url)
    t.match(response.json(), { success: false, error: /before/ }, url)
  }
  for (const url of ['/api/admin/bans?limit=0', '/api/admin/audit?limit=101']) {
    const response = await app.inject({ method: 'GET', url, headers: asAdmin })
    t.equal(response.statusCode, 400, url)
    t.match(response.json(), { success: false, error: /limit/ }, url)
  }
})

t.test('GET /openapi.json documents the admin routes for the gateway', async (t) => {
  const response = await app.inject({ method: 'GET', url: '/openapi.json' })
  t.equal(response.statusCode, 200)
  const doc = response.json<{ paths: Record<string, Record<string, unknown>> }>()
  for (const path of ['/api/admin/users', '/api/admin/users/{userId}/approve', '/api/admin/users/{userId}/revoke', '/api/admin/bans', '/api/admin/bans/{email}', '/api/admin/audit']) {
    t.ok(doc.paths[path], `documents ${path}`)
  }
  t.notOk(doc.paths['/health'], 'only /api is documented')
})
