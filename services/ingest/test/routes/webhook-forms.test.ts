import t from 'tap'
import { alertIdOf } from '../../src/alert-id.ts'
import { build } from '../helper.ts'

const entry = { action: 'Buy', symbol: 'NQ1!', entryPrice: 15000.25, sl: 14950, tp: 15100, user_id: 'trader-1', indicator: 'Momentum', leverage: 2 }

t.test('each accepted form publishes the same normalized entry alert on alerts.entry', async (t) => {
  const { app, watcher } = await build(t)
  const labelLines = 'Action: Buy\nSymbol: NQ1!\nEntry Price: 15000.25\nSL: 14950\nTP: 15100\nUser ID: trader-1\nIndicator: Momentum\nLeverage: 2'
  const requests = {
    'JSON object': { url: '/webhook/alert', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(entry) },
    'message field holding a JSON string': { url: '/webhook/alert', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ message: JSON.stringify(entry) }) },
    // Its own id: the same JSON text from the same user would be a resend of the first one.
    'query parameter message holding JSON': { url: `/webhook/alert?message=${encodeURIComponent(JSON.stringify({ ...entry, id: 'from-query' }))}` },
    'plain-text label lines': { url: '/webhook/alert', headers: { 'content-type': 'text/plain' }, payload: labelLines },
  }
  for (const [form, request] of Object.entries(requests)) {
    const response = await app.inject({ method: 'POST', ...request })
    t.equal(response.statusCode, 200, `${form}: 200`)
    t.match(response.json(), { success: true, kind: 'entry', duplicate: false }, form)
  }
  const messages = await watcher.alertMessages(4)
  t.same(watcher.invalid, [], 'every message matches its contract')
  for (const { subject, body } of messages) {
    t.equal(subject, 'alerts.entry')
    t.match(body, {
      version: 1,
      kind: 'entry',
      action: 'LONG',
      symbol: 'NQ1!',
      root: 'NQ',
      entryPrice: 15000.25,
      sl: 14950,
      tp: 15100,
      exitPrice: null,
      indicator: 'Momentum',
      userId: 'trader-1',
      leverage: 2,
      quantity: null,
      result: null,
      isVendorTest: false,
      parseFailed: false,
    })
  }
  t.same(messages[0]?.body.raw, entry, 'raw keeps the payload as parsed')
  t.same(messages[3]?.body.raw, { Action: 'Buy', Symbol: 'NQ1!', 'Entry Price': '15000.25', SL: '14950', TP: '15100', 'User ID': 'trader-1', Indicator: 'Momentum', Leverage: '2' })
})

t.test('the raw body is captured whatever the content type', async (t) => {
  const { app, watcher } = await build(t)
  const json = JSON.stringify({ ...entry, id: 'ct-1' })
  const cases: [string, Record<string, string>, string | Buffer][] = [
    ['text/plain with charset', { 'content-type': 'text/plain; charset=utf-8' }, JSON.stringify({ ...entry, id: 'ct-2' })],
    ['no content type', {}, JSON.stringify({ ...entry, id: 'ct-3' })],
    ['form-encoded JSON (curl -d)', { 'content-type': 'application/x-www-form-urlencoded' }, JSON.stringify({ ...entry, id: 'ct-4' })],
    ['form fields', { 'content-type': 'application/x-www-form-urlencoded' }, 'action=sell&symbol=ES1%21&price=5000.5&user_id=trader-1&id=ct-5'],
    ['a malformed content type', { 'content-type': 'this is not a media type' }, JSON.stringify({ ...entry, id: 'ct-6' })],
    ['application/json', { 'content-type': 'application/json' }, json],
    ['latin-1 text', { 'content-type': 'text/plain; charset=iso-8859-1' }, Buffer.from('Action: Buy\nSymbol: NQ1!\nUser ID: caf\u00e9\nid: ct-7', 'latin1')],
    ['octet-stream', { 'content-type': 'application/octet-stream' }, JSON.stringify({ ...entry, id: 'ct-8' })],
  ]
  for (const [name, headers, payload] of cases) {
    const response = await app.inject({ method: 'POST', url: '/webhook/alert', headers, payload })
    t.equal(response.statusCode, 200, `${name}: ${response.body}`)
  }
  const messages = await watcher.alertMessages(cases.length)
  const byId = new Map(messages.map(({ body }) => [body.alertId, body]))
  t.match(byId.get(alertIdOf('ct-5', '', 'trader-1')), { action: 'SHORT', symbol: 'ES1!', root: 'ES', entryPrice: 5000.5, userId: 'trader-1' }, 'form fields are alert fields')
  t.match(byId.get(alertIdOf('ct-7', '', 'caf\u00e9')), { userId: 'caf\u00e9' }, 'the declared charset decodes the body')
  for (const id of ['ct-1', 'ct-2', 'ct-3', 'ct-4', 'ct-6', 'ct-8']) t.match(byId.get(alertIdOf(id, '', 'trader-1')), { action: 'LONG', symbol: 'NQ1!', entryPrice: 15000.25 }, id)
})

t.test('source priority: query message, then body, then the x-alert-message header when the body is empty', async (t) => {
  const { app, watcher } = await build(t)
  const query = await app.inject({
    method: 'POST',
    url: `/webhook/alert?message=${encodeURIComponent('Action: Sell\nSymbol: ES1!\nUser ID: u-query')}`,
    headers: { 'content-type': 'text/plain', 'x-alert-message': 'Action: Buy\nUser ID: u-header' },
    payload: 'Action: Buy\nSymbol: NQ1!\nUser ID: u-body',
  })
  t.equal(query.statusCode, 200)
  const body = await app.inject({
    method: 'POST',
    url: '/webhook/alert',
    headers: { 'content-type': 'text/plain', 'x-alert-message': 'Action: Buy\nUser ID: u-header' },
    payload: 'Action: Buy\nSymbol: NQ1!\nUser ID: u-body',
  })
  t.equal(body.statusCode, 200)
  const header = await app.inject({
    method: 'POST',
    url: '/webhook/alert',
    headers: { 'content-type': 'text/plain', 'x-alert-message': '{"action":"buy","symbol":"MNQZ6","user_id":"u-header"}' },
    payload: '  \r\n ',
  })
  t.equal(header.statusCode, 200)
  const messages = await watcher.alertMessages(3)
  t.same(messages.map(({ body }) => body.userId).sort(), ['u-body', 'u-header', 'u-query'])
  t.match(messages.find(({ body }) => body.userId === 'u-header')?.body, { symbol: 'MNQZ6', root: 'MNQ', action: 'LONG' })
  const entries = await watcher.intakeEntries(3)
  t.same(entries.map((entry) => entry.source).sort(), ['body', 'header', 'query'])
})

t.test('JSON sent as text/plain, a JSON string, a BOM, CRLF and stray blanks all parse', async (t) => {
  const { app, watcher } = await build(t)
  const payloads = [
    ['text/plain', JSON.stringify({ side: 'long', ticker: 'CME_MINI:NQ1!', price: '15,010.5', stop_loss: '14990', take_profit: 15050, userId: 'u1', id: 'p-1' })],
    ['application/json', JSON.stringify(JSON.stringify({ action: 'SHORT', symbol: 'NQ1!', entryPrice: 1, user_id: 'u1', id: 'p-2' }))],
    ['text/plain', '\uFEFF  action : sell \r\n\r\n   SYMBOL:   NQ1!  \r\nstop loss: 15020\r\nTake Profit: 14900\r\nuser_id: u1\r\nid: p-3\r\n'],
    ['application/json', '\uFEFF{"action":"buy","symbol":"NQ1!","user_id":"u1","id":"p-4"}'],
    ['application/json', JSON.stringify({ user_id: 'u1', message: { action: 'sell', symbol: 'GC1!', id: 'p-5' } })],
    ['application/json', JSON.stringify({ user_id: 'u1', message: 'Action: Buy\nSymbol: CL1!\nid: p-6' })],
  ]
  for (const [contentType, payload] of payloads) {
    const response = await app.inject({ method: 'POST', url: '/webhook/alert', headers: { 'content-type': contentType as string }, payload })
    t.equal(response.statusCode, 200, String(payload))
  }
  const byId = new Map((await watcher.alertMessages(payloads.length)).map(({ body }) => [body.alertId, body]))
  t.match(byId.get(alertIdOf('p-1', '', 'u1')), { action: 'LONG', symbol: 'CME_MINI:NQ1!', root: 'NQ', entryPrice: 15010.5, sl: 14990, tp: 15050, userId: 'u1' })
  t.match(byId.get(alertIdOf('p-2', '', 'u1')), { action: 'SHORT', entryPrice: 1 })
  t.match(byId.get(alertIdOf('p-3', '', 'u1')), { action: 'SHORT', symbol: 'NQ1!', sl: 15020, tp: 14900, userId: 'u1' })
  t.match(byId.get(alertIdOf('p-4', '', 'u1')), { action: 'LONG' })
  t.match(byId.get(alertIdOf('p-5', '', 'u1')), { action: 'SHORT', symbol: 'GC1!', userId: 'u1' }, 'message object extracted, outer user_id kept')
  t.match(byId.get(alertIdOf('p-6', '', 'u1')), { action: 'LONG', symbol: 'CL1!', userId: 'u1' }, 'message label lines extracted')
})

t.test('unexpanded TradingView placeholders are refused with the placeholder and field named; an id placeholder is never the alert id', async (t) => {
  const { app, watcher } = await build(t)
  const payload = { action: 'buy', symbol: '{{ticker}}', entryPrice: '{{close}}', user_id: 'u1', id: '{{alert_id}}' }
  const response = await app.inject({ method: 'POST', url: '/webhook/alert', payload })
  t.equal(response.statusCode, 400)
  t.match(response.json().error, /^Unexpanded placeholder \{\{ticker\}\} in symbol:/)
  const [entry] = await watcher.intakeEntries(1)
  t.match(entry, { outcome: 'invalid', statusCode: 400, rawBody: JSON.stringify(payload) }, 'kept in the intake log')
  const idOnly = await app.inject({ method: 'POST', url: '/webhook/alert', payload: { action: 'buy', symbol: 'NQ1!', user_id: 'u1', id: '{{alert_id}}', indicator: '{{plot_0}}' } })
  t.equal(idOnly.statusCode, 200, 'placeholders in fields that do not matter are kept as text')
  const [message] = await watcher.alertMessages(1)
  t.match(message?.body, { action: 'LONG', indicator: '{{plot_0}}', raw: { id: '{{alert_id}}' } })
  t.not(message?.body.alertId, '{{alert_id}}', 'a placeholder id is not used as the alert id')
  t.equal(watcher.alerts.length, 1, 'nothing published for the refused alert')
})
