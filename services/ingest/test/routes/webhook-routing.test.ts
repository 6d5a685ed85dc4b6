import t from 'tap'
import { Streams } from '@signals/contracts'
import { build, eventually, METRICS_TOKEN, streamMessageCount } from '../helper.ts'

t.test('routing: result alerts, premium indicators and isVendorTest, entries', async (t) => {
  const { app, watcher } = await build(t, { PREMIUM_INDICATORS: 'Golden Cross, VIP Signals' })
  const cases = [
    { payload: { result: 'TP', symbol: 'NQ1!', exitPrice: 15100, price: 1, entryPrice: 2 }, subject: 'alerts.result', expected: { kind: 'result', result: 'TP', exitPrice: 15100, userId: null } },
    { payload: 'Result: stop loss\nSymbol: MNQZ6\nPrice: 14950', subject: 'alerts.result', expected: { kind: 'result', result: 'SL', root: 'MNQ', exitPrice: 14950 } },
    { payload: { result: 'exit', ticker: 'ES1!', entryPrice: 5000 }, subject: 'alerts.result', expected: { kind: 'result', result: 'Exit', exitPrice: 5000 } },
    { payload: { action: 'buy', symbol: 'NQ1!', indicator: 'golden cross' }, subject: 'alerts.test', expected: { kind: 'test', isVendorTest: true, userId: null } },
    { payload: { action: 'sell', symbol: 'NQ1!', isVendorTest: true, result: 'TP' }, subject: 'alerts.test', expected: { kind: 'test', isVendorTest: true, result: 'TP' } },
    { payload: 'Action: Short\nSymbol: NQ1!\nisVendorTest: true', subject: 'alerts.test', expected: { kind: 'test', action: 'SHORT' } },
    { payload: { action: 'short', symbol: 'NQ1!', user_id: 'u7', indicator: 'Plain' }, subject: 'alerts.entry', expected: { kind: 'entry', action: 'SHORT', userId: 'u7', isVendorTest: false } },
  ]
  for (const { payload, expected } of cases) {
    const response = await app.inject({ method: 'POST', url: '/webhook/alert', payload })
    t.equal(response.statusCode, 200, JSON.stringify(payload))
    t.equal(response.json().kind, expected.kind)
  }
  const messages = await watcher.alertMessages(cases.length)
  t.same(watcher.invalid, [])
  cases.forEach(({ subject, expected }, index) => {
    const message = messages.find(({ body }) => body.alertId === messages[index]?.body.alertId)
    t.equal(message?.subject, subject, `case ${index} on ${subject}`)
    t.match(message?.body, expected, `case ${index}`)
  })
})

t.test('an entry alert without user_id is refused with 400 "user_id required" and nothing is published', async (t) => {
  const { app, watcher } = await build(t)
  for (const payload of [{ action: 'buy', symbol: 'NQ1!' }, 'Action: Buy\nSymbol: NQ1!', 'just some words']) {
    const response = await app.inject({ method: 'POST', url: '/webhook/alert', payload })
    t.equal(response.statusCode, 400)
    t.same(response.json(), { success: false, error: 'user_id required' })
  }
  const entries = await watcher.intakeEntries(3)
  t.same(entries.map((entry) => entry.outcome), ['missing_user_id', 'missing_user_id', 'missing_user_id'])
  t.equal(watcher.alerts.length, 0)
  t.equal(await streamMessageCount(app, Streams.alerts.name), 0, 'the ALERTS stream holds nothing')
})

t.test('an unparseable body loses nothing: kept whole with _raw, published when the query names the user', async (t) => {
  const { app, watcher } = await build(t)
  const text = 'NQ1! crossing 15000 \u{1F680}'
  const response = await app.inject({ method: 'POST', url: '/webhook/alert?user_id=trader-9', headers: { 'content-type': 'text/plain' }, payload: text })
  t.equal(response.statusCode, 200)
  const [message] = await watcher.alertMessages(1)
  t.match(message?.body, { kind: 'entry', userId: 'trader-9', parseFailed: true, action: null, raw: { _raw: true, text } })
  const [entry] = await watcher.intakeEntries(1)
  t.match(entry, { outcome: 'accepted', rawBody: text, source: 'body', contentType: 'text/plain', statusCode: 200, alertId: message?.body.alertId, kind: 'entry' })
})

t.test('a body that looks like JSON but does not parse is refused as malformed JSON, saying where (issue 25)', async (t) => {
  const { app, watcher } = await build(t)
  const cases: [string, string][] = [
    ['{"user_id":"u","action":"buy" "symbol":"NQ1!"}', "Malformed JSON at line 1, column 31: expected ',' or '}' after a property value"],
    ['{\n  "user_id": "u",\n  "action": "buy",\n  "stop": {{plot("Stop")}}\n}', "Malformed JSON at line 4, column 12: expected a property name in double quotes"],
    ['  {"user_id":"u","action":"buy"', "Malformed JSON at line 1, column 32: the text ends before the JSON does: expected ',' or '}' after a property value"],
    ['{"user_id":"u", "action":"buy",} trailing', 'Malformed JSON at line 1, column 34: unexpected text after the JSON'],
    ['[{"user_id":"u"}', "Malformed JSON at line 1, column 17: the text ends before the JSON does: expected ',' or ']' after a list element"],
    ['{"user_id":"u", "action":"buy",, }', 'Malformed JSON at line 1, column 32: expected a property name in double quotes'],
    ['{"user_id":"u", "action": buy}', 'Malformed JSON at line 1, column 27: expected a value (a string in double quotes, a number, true, false, null, an object or a list)'],
    ['{"user_id":"u",\r\n"note":"two\nlines"}', 'Malformed JSON at line 2, column 12: a line break or control character inside a string (write it as \\n)'],
  ]
  for (const [payload, error] of cases) {
    const response = await app.inject({ method: 'POST', url: '/webhook/alert', headers: { 'content-type': 'text/plain' }, payload })
    t.equal(response.statusCode, 400, payload)
    t.same(response.json(), { success: false, error }, payload)
  }
  const entries = await watcher.intakeEntries(cases.length)
  t.same(entries.map((entry) => entry.outcome), cases.map(() => 'invalid'), 'in the intake log as invalid (replayable once fixed), not missing_user_id')
  t.match(entries[0], { rawBody: cases[0]?.[0], reason: /^Malformed JSON/ }, 'the body is kept whole in the intake log')
  t.same(entries.map((entry) => entry.userId), cases.map(() => 'u'), 'logged under the user the broken JSON names, so that trader sees the refusal')
  t.equal(watcher.alerts.length, 0)

  // Intake rule 10: when the URL names the user, an unparseable body is still kept as a _raw record.
  const text = '{"action":"buy" "symbol":"NQ1!"}'
  const kept = await app.inject({ method: 'POST', url: '/webhook/alert?user_id=trader-10', headers: { 'content-type': 'text/plain' }, payload: text })
  t.equal(kept.statusCode, 200)
  const [message] = await watcher.alertMessages(1)
  t.match(message?.body, { kind: 'entry', userId: 'trader-10', parseFailed: true, raw: { _raw: true, text } })
})

t.test('unusable alerts get a clear 400', async (t) => {
  const { app, watcher } = await build(t)
  const cases: [unknown, string][] = [
    [{ result: 'maybe', symbol: 'NQ1!' }, 'result must be TP, SL or Exit'],
    [{ result: 'TP' }, 'symbol required for a result alert'],
    [{ action: 'buy', symbol: 'X'.repeat(65), user_id: 'u' }, 'symbol is longer than 64 characters'],
    [{ action: 'buy', user_id: 'u'.repeat(256) }, 'user_id is longer than 255 characters'],
    ['{"user_id":"u","deep":' + '['.repeat(40) + ']'.repeat(40) + '}', 'JSON nested deeper than 32 levels'],
  ]
  for (const [payload, error] of cases) {
    const response = await app.inject({ method: 'POST', url: '/webhook/alert', headers: { 'content-type': 'application/json' }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) })
    t.equal(response.statusCode, 400)
    t.same(response.json(), { success: false, error })
  }
  const empty = await app.inject({ method: 'POST', url: '/webhook/alert' })
  t.equal(empty.statusCode, 400, 'no alert anywhere: 400')
  const entries = await watcher.intakeEntries(cases.length + 1)
  t.ok(entries.every((entry) => entry.outcome === 'invalid' || entry.outcome === 'missing_user_id'))
  t.match(entries.find((entry) => entry.source === 'none'), { rawBody: '', outcome: 'missing_user_id' })
  t.equal(watcher.alerts.length, 0)
})

t.test('a resent alert is answered duplicate:true and stored once', async (t) => {
  const { app, watcher } = await build(t)
  const payload = 'Action: Buy\r\nSymbol: NQ1!\r\nUser ID: u1\r\n'
  const first = await app.inject({ method: 'POST', url: '/webhook/alert', headers: { 'content-type': 'text/plain' }, payload })
  const again = await app.inject({ method: 'POST', url: '/webhook/alert', headers: { 'content-type': 'text/plain' }, payload: `${payload}\n` })
  t.match(first.json(), { success: true, duplicate: false })
  t.match(again.json(), { success: true, duplicate: true, alertId: first.json().alertId })

  const otherUser = await app.inject({ method: 'POST', url: '/webhook/alert', headers: { 'content-type': 'text/plain' }, payload: payload.replace('u1', 'u2') })
  t.match(otherUser.json(), { duplicate: false }, 'the same alert for another user is not a duplicate')

  const withId = { action: 'sell', symbol: 'ES1!', user_id: 'u1', id: 'tv-123' }
  const idFirst = await app.inject({ method: 'POST', url: '/webhook/alert', payload: withId })
  const idAgain = await app.inject({ method: 'POST', url: '/webhook/alert', payload: { ...withId, entryPrice: 5001 } })
  t.match(idFirst.json(), { success: true, alertId: /^[0-9a-f]{40}$/, kind: 'entry', duplicate: false })
  t.same(idAgain.json(), { success: true, alertId: idFirst.json().alertId, kind: 'entry', duplicate: true }, 'the explicit id decides')

  t.equal(await streamMessageCount(app, Streams.alerts.name), 3, 'three alerts stored, resends dropped by the server')
  const entries = await watcher.intakeEntries(5)
  t.same(entries.map((entry) => entry.outcome).sort(), ['accepted', 'accepted', 'accepted', 'duplicate', 'duplicate'])
  const metrics = (await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body
  t.match(metrics, /ingest_webhooks_total\{[^}]*outcome="accepted"[^}]*\} 3/)
  t.match(metrics, /ingest_webhooks_total\{[^}]*outcome="duplicate"[^}]*\} 2/)
})

t.test('a body over the limit gets 413 and an intake-log entry', async (t) => {
  const { app, watcher } = await build(t)
  const response = await app.inject({ method: 'POST', url: '/webhook/alert', headers: { 'content-type': 'text/plain' }, payload: 'x'.repeat(64 * 1024 + 1) })
  t.equal(response.statusCode, 413)
  t.equal(response.json().success, false)
  const limit = await app.inject({ method: 'POST', url: '/webhook/alert?user_id=u1', headers: { 'content-type': 'text/plain' }, payload: 'x'.repeat(64 * 1024) })
  t.equal(limit.statusCode, 200, 'exactly 64 KiB is accepted')
  const entries = await watcher.intakeEntries(2)
  t.match(entries.find((entry) => entry.statusCode === 413), { outcome: 'too_large', rawBody: '' })
  await eventually(() => watcher.alerts.length === 1)
})

t.test('an alert older than ALERT_MAX_AGE_SECONDS is refused and logged; a fresh one passes', async (t) => {
  const { app, watcher } = await build(t, { ALERT_MAX_AGE_SECONDS: '60' })
  const old = new Date(Date.now() - 5 * 60_000).toISOString()
  const stale = await app.inject({ method: 'POST', url: '/webhook/alert', payload: { action: 'buy', symbol: 'NQ1!', user_id: 'u1', time: old } })
  t.equal(stale.statusCode, 400)
  t.match(stale.json().error, /older than 60 s/)
  const staleSeconds = await app.inject({ method: 'POST', url: '/webhook/alert', payload: `Action: Buy\nUser ID: u1\nTimestamp: ${Math.floor(Date.now() / 1000) - 3600}` })
  t.equal(staleSeconds.statusCode, 400, 'epoch seconds are read too')
  const fresh = await app.inject({ method: 'POST', url: '/webhook/alert', payload: { action: 'buy', symbol: 'NQ1!', user_id: 'u1', timenow: new Date().toISOString() } })
  t.equal(fresh.statusCode, 200)
  const placeholder = await app.inject({ method: 'POST', url: '/webhook/alert', payload: { action: 'buy', user_id: 'u1', time: '{{timenow}}' } })
  t.equal(placeholder.statusCode, 200, 'an unreadable timestamp is not guessed at')
  const entries = await watcher.intakeEntries(4)
  t.same(entries.filter((entry) => entry.outcome === 'too_old').length, 2)
})

t.test("an explicit id is unique within its sender's user_id, never across senders (issue 22 item 5)", async (t) => {
  const { app } = await build(t)
  const long = { id: 'Long', action: 'buy', symbol: 'NQ1!' }
  const send = (payload: object) => app.inject({ method: 'POST', url: '/webhook/alert', payload })
  const traderA = await send({ ...long, user_id: 'trader-a' })
  const traderB = await send({ ...long, user_id: 'trader-b' })
  const traderAAgain = await send({ ...long, user_id: 'trader-a', entryPrice: 1 })
  t.match(traderA.json(), { success: true, duplicate: false })
  t.match(traderB.json(), { success: true, duplicate: false }, "trader B's Long is not a duplicate of trader A's")
  t.not(traderB.json().alertId, traderA.json().alertId, 'each sender has its own alert id')
  t.match(traderAAgain.json(), { success: true, duplicate: true, alertId: traderA.json().alertId }, "within one sender's user_id the explicit id still decides")

  const anonymous = await send({ id: 'Long', result: 'TP', symbol: 'NQ1!', exitPrice: 1 })
  t.match(anonymous.json(), { success: true, duplicate: false }, 'an alert naming no user has a scope of its own')
  t.not(anonymous.json().alertId, traderA.json().alertId)
  t.match((await send({ id: 'Long', result: 'TP', symbol: 'NQ1!', exitPrice: 2 })).json(), { duplicate: true, alertId: anonymous.json().alertId })
  t.equal(await streamMessageCount(app, Streams.alerts.name), 3)
})

t.test('a NUL in the symbol, indicator or user_id is refused with 400 naming the field; elsewhere in the payload it is kept (issue 22 item 7)', async (t) => {
  const { app, watcher } = await build(t)
  for (const field of ['symbol', 'indicator', 'user_id']) {
    const payload = { action: 'buy', symbol: 'NQ1!', user_id: 'u1', indicator: 'x', [field]: 'bad\u0000value' }
    const response = await app.inject({ method: 'POST', url: '/webhook/alert', payload })
    t.equal(response.statusCode, 400, field)
    t.same(response.json(), { success: false, error: `${field} holds a control character` })
  }
  const kept = await app.inject({ method: 'POST', url: '/webhook/alert', payload: { action: 'buy', symbol: 'NQ1!', user_id: 'u1', comment: 'a\u0000b' } })
  t.equal(kept.statusCode, 200)
  const [message] = await watcher.alertMessages(1)
  t.match(message?.body.raw, { comment: 'a\u0000b' }, 'the connector escapes it when it stores the payload')
})
