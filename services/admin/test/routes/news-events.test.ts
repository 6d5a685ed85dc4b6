import t from 'tap'
import { as, build, insertUser, unique } from '../helper.ts'

const { app, config, adminEmail } = await build(t)
const adminId = `admin-${unique()}`
const asAdmin = as(config, { userId: adminId, email: adminEmail, role: 'admin' })
await insertUser(app, { userId: adminId, email: adminEmail, approved: true, role: 'admin' })

const soon = () => new Date(Date.now() + 3_600_000).toISOString()

t.test('an administrator adds, lists and removes news events; each change is audited', async (t) => {
  const at = soon()
  const added = await app.inject({ method: 'POST', url: '/api/admin/news-events', headers: asAdmin, payload: { name: ' FOMC statement ', at, minutesBefore: 5, minutesAfter: 15 } })
  t.equal(added.statusCode, 201, added.body)
  const event = added.json().event
  t.match(event, { id: Number, name: 'FOMC statement', at, minutesBefore: 5, minutesAfter: 15 })
  t.match(await app.db.selectFrom('news_events').selectAll().where('id', '=', event.id).executeTakeFirst(), { name: 'FOMC statement', minutes_before: 5, minutes_after: 15, created_by: adminId })

  const listed = await app.inject({ method: 'GET', url: '/api/admin/news-events', headers: asAdmin })
  t.equal(listed.statusCode, 200)
  t.match(listed.json(), { success: true, events: [{ id: event.id, name: 'FOMC statement' }] })
  const later = await app.inject({ method: 'GET', url: `/api/admin/news-events?from=${encodeURIComponent(new Date(Date.now() + 7_200_000).toISOString())}`, headers: asAdmin })
  t.same(later.json().events, [], 'from: only events at or after it')

  const removed = await app.inject({ method: 'DELETE', url: `/api/admin/news-events/${event.id}`, headers: asAdmin })
  t.same(removed.json(), { success: true, id: event.id })
  t.equal((await app.inject({ method: 'DELETE', url: `/api/admin/news-events/${event.id}`, headers: asAdmin })).statusCode, 404, 'gone: 404')
  const audit = await app.db.selectFrom('admin_audit_log').select(['action', 'target']).where('target', '=', String(event.id)).orderBy('id').execute()
  t.same(audit, [{ action: 'news_event_add', target: String(event.id) }, { action: 'news_event_delete', target: String(event.id) }])
})

t.test('bad input is a 400 naming the field; traders are refused', async (t) => {
  const cases: [unknown, RegExp][] = [
    [{ name: '', at: soon(), minutesBefore: 5, minutesAfter: 5 }, /name/],
    [{ name: 'CPI', at: 'tomorrow', minutesBefore: 5, minutesAfter: 5 }, /at/],
    [{ name: 'CPI', at: soon(), minutesBefore: -1, minutesAfter: 5 }, /minutesBefore must be >= 0/],
    [{ name: 'CPI', at: soon(), minutesBefore: 5, minutesAfter: 2000 }, /minutesAfter must be <= 1440/],
    [{ name: 'CPI', at: soon(), minutesBefore: 5 }, /minutesAfter is required/],
    [{ name: 'CPI', at: soon(), minutesBefore: 5, minutesAfter: 5, impact: 'high' }, /impact is not a known field/],
  ]
  for (const [payload, error] of cases) {
    const response = await app.inject({ method: 'POST', url: '/api/admin/news-events', headers: asAdmin, payload: payload as object })
    t.equal(response.statusCode, 400, JSON.stringify(payload))
    t.match(response.json(), { success: false, error }, response.json().error)
  }
  t.equal((await app.inject({ method: 'DELETE', url: '/api/admin/news-events/abc', headers: asAdmin })).statusCode, 400)
  const trader = as(config, { userId: `trader-${unique()}`, email: 'trader@example.com', role: 'trader' })
  t.equal((await app.inject({ method: 'POST', url: '/api/admin/news-events', headers: trader, payload: { name: 'CPI', at: soon(), minutesBefore: 5, minutesAfter: 5 } })).statusCode, 403)
  t.equal(await app.db.selectFrom('news_events').select('id').execute().then((rows) => rows.length), 0, 'nothing saved')
})
