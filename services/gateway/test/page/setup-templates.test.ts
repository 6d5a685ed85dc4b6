import t from 'tap'
import { openBucket } from '@signals/bus'
import { loadConfig } from '@signals/config'
import { Buckets } from '@signals/contracts'
import { newSignalSourceToken } from '@signals/http-kit'
import { testNamespace, deleteNamespaceStreams } from '@signals/test-support'
import { buildApp as buildIngest } from '../../../ingest/src/app.ts'
import { ConfigSchema as IngestConfigSchema } from '../../../ingest/src/config.ts'
import { eventually, watchNamespace } from '../../../ingest/test/helper.ts'
import { pageSetup } from './page-modules.ts'

const WEBHOOK_URL = 'https://signals.example.com/webhook/alert'

/** What TradingView puts in place of each placeholder when the alert fires (a strategy on MNQZ6). */
const FIRED: Record<string, string> = {
  ticker: 'MNQZ6',
  close: '21000.25',
  'strategy.order.action': 'buy',
  plot_0: '20990.5',
  plot_1: '21020.75',
  // TradingView also fills a plot by its title, written with plain double quotes only.
  'plot("Stop")': '20990.5',
  'plot("Target")': '21020.75',
}

/**
 * TradingView's substitution: each `{{name}}` it knows is replaced by its value as text, in the message only
 * (the webhook URL is sent as typed). One it does not know (a typo, `plot(\"Stop\")` with escaped quotes) is
 * left as written, which ingest then refuses. No template carries a secret (issue 22): the source URL is
 * the credential, and the shared route is tried here as a deployment without WEBHOOK_SECRET runs it.
 */
const fire = (text: string) => text.replace(/\{\{([^{}]*)\}\}/g, (placeholder, name: string) => FIRED[name] ?? placeholder)
const isJson = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

const namespace = testNamespace()
t.teardown(() => deleteNamespaceStreams(namespace))
const config = loadConfig(IngestConfigSchema, { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', BUS_NAMESPACE: namespace, WEBHOOK_SECRET: undefined })
const ingest = await buildIngest(config)
t.teardown(() => ingest.close())
await ingest.ready()
const watcher = await watchNamespace(t, namespace, config.NATS_URL)

t.test('every set-up template, pasted into TradingView and fired, is accepted by ingest as this trader\'s entry (issue 25)', async (t) => {
  const userId = 'google-oauth2|1234567890'
  const templates = pageSetup.alertTemplates(userId, WEBHOOK_URL)
  t.ok(templates.length >= 4, 'the accepted forms are offered')
  for (const template of templates) {
    const url = new URL(template.url)
    t.equal(`${url.origin}${url.pathname}`, WEBHOOK_URL, `${template.id}: posts to the webhook`)
    t.notMatch(`${template.url}\n${template.message}`, /secret|passphrase/i, `${template.id}: asks for no secret (issue 22)`)
    t.notMatch(template.url, /\{\{|%7B%7B/i, `${template.id}: no placeholder in the URL (TradingView fills the message only)`)
    const looksLikeJson = /^\s*[{[]/.test(template.message)
    if (looksLikeJson) t.ok(isJson(template.message), `${template.id}: valid JSON as pasted`)
    const body = fire(template.message)
    t.notMatch(body, /\{\{/, `${template.id}: TradingView fills every placeholder`)
    if (looksLikeJson) t.ok(isJson(body), `${template.id}: valid JSON once filled, so TradingView sends it as application/json`)
    const response = await ingest.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: { 'content-type': isJson(body) ? 'application/json' : 'text/plain; charset=utf-8' },
      payload: body,
    })
    t.equal(response.statusCode, 200, `${template.id}: accepted (${response.body})`)
    if (response.statusCode !== 200) continue
    const { alertId } = response.json() as { alertId: string }
    await eventually(() => watcher.alerts.some((message) => message.body.alertId === alertId))
    const published = watcher.alerts.find((message) => message.body.alertId === alertId)
    t.match(
      published?.body,
      { kind: 'entry', action: 'LONG', symbol: 'MNQZ6', entryPrice: 21000.25, sl: 20990.5, tp: 21020.75, userId, parseFailed: false },
      `${template.id}: the entry as the strategy meant it`,
    )
  }
})

/**
 * TradingView's placeholders (shared/reference/brokers-and-alerts.md, section 3): these names only, each
 * written `{{name}}` in the message body and filled there as bare text; never in the URL.
 */
const TRADINGVIEW_PLACEHOLDER =
  /^(ticker|exchange|close|open|high|low|volume|time|timenow|interval|plot_\d+|strategy\.order\.(action|id|price|contracts|alert_message)|strategy\.position_size|strategy\.market_position|strategy\.prev_market_position)$/

t.test('the one recommended message follows TradingView\'s placeholder rules and is accepted once filled (issue 25, item 6)', async (t) => {
  const userId = 'google-oauth2|777'
  for (const [mode, quantity] of [['fixed_fraction', null], ['alert_quantity', 3]] as const) {
    const templates = pageSetup.alertTemplates(userId, WEBHOOK_URL, mode)
    const recommended = templates[0]
    if (!recommended) throw new Error('no template')
    t.equal(recommended.id, pageSetup.RECOMMENDED_ID, `${mode}: the recommended message comes first`)
    t.equal(recommended.url, WEBHOOK_URL, `${mode}: pasted with the plain webhook URL (nothing for TradingView to fill there)`)
    const placeholders = [...recommended.message.matchAll(/\{\{(.*?)\}\}/g)].map((match) => match[1] ?? '')
    t.ok(placeholders.length >= 5, `${mode}: action, symbol, price, stop and target come from TradingView`)
    for (const name of placeholders) t.match(name, TRADINGVIEW_PLACEHOLDER, `${mode}: {{${name}}} is one TradingView fills`)
    t.notMatch(recommended.message, /\\|%7B|%7D/i, `${mode}: no escaped quote and nothing percent-encoded`)
    // Each placeholder is a whole JSON string value: valid JSON before and after TradingView fills it.
    const parsed = JSON.parse(recommended.message) as Record<string, unknown>
    for (const value of Object.values(parsed)) if (typeof value === 'string' && value.includes('{{')) t.match(value, /^\{\{[^{}]+\}\}$/, `${mode}: ${value} stands alone`)
    t.equal(parsed.sl, '{{plot_0}}', `${mode}: the stop every mode needs`)
    t.equal('quantity' in parsed, mode === 'alert_quantity', `${mode}: a quantity only where the mode sizes from it`)

    const filled: Record<string, string> = { ...FIRED, 'strategy.order.contracts': '3' }
    const body = (recommended.message.replace(/\{\{([^{}]*)\}\}/g, (placeholder, name: string) => filled[name] ?? placeholder))
    const response = await ingest.inject({ method: 'POST', url: new URL(WEBHOOK_URL).pathname, headers: { 'content-type': 'application/json' }, payload: body })
    t.equal(response.statusCode, 200, `${mode}: accepted (${response.body})`)
    const { alertId } = response.json() as { alertId: string }
    await eventually(() => watcher.alerts.some((message) => message.body.alertId === alertId))
    const published = watcher.alerts.find((message) => message.body.alertId === alertId)
    t.match(published?.body, { kind: 'entry', action: 'LONG', symbol: 'MNQZ6', sl: 20990.5, tp: 21020.75, userId, quantity }, `${mode}: the entry as the strategy meant it`)
  }
})

t.test("a source URL's messages (the Signal sources page, issue 22): no user_id, no secret, accepted as the owner's entry and result", async (t) => {
  const { token, tokenHash } = newSignalSourceToken()
  const sourceId = '3a0f9d6b-4c5e-4f8a-9d1b-3456789abcde'
  const owner = 'google-oauth2|source-owner'
  const kv = await openBucket(ingest.bus, Buckets.signalSources)
  // As the settings relay writes a live source (docs/decisions/signal-sources.md).
  await kv.put(tokenHash, JSON.stringify({ version: 1, sourceId, ownerUserId: owner }))
  t.teardown(() => kv.purge(tokenHash))
  const sourceUrl = `https://signals.example.com/webhook/s/${token}`
  const entries = pageSetup.alertTemplates(null, sourceUrl, 'fixed_fraction', 'fresh')
  const result = pageSetup.resultTemplate(null, sourceUrl, 'fresh')
  t.same(entries.map((template) => template.id), ['fresh-json', 'fresh-message', 'fresh-text'], 'JSON, JSON in "message" and label lines (the user_id-in-URL form is the shared route\'s)')
  for (const template of [...entries, result]) {
    t.equal(template.url, sourceUrl, `${template.id}: pasted with the source's URL`)
    t.notMatch(template.message, /user_?id|secret/i, `${template.id}: names no user and asks for no secret`)
    const body = fire(template.message)
    const response = await ingest.inject({ method: 'POST', url: new URL(sourceUrl).pathname, headers: { 'content-type': isJson(body) ? 'application/json' : 'text/plain; charset=utf-8' }, payload: body })
    t.equal(response.statusCode, 200, `${template.id}: accepted (${response.body})`)
    if (response.statusCode !== 200) continue
    const { alertId } = response.json() as { alertId: string }
    await eventually(() => watcher.alerts.some((message) => message.body.alertId === alertId))
    const published = watcher.alerts.find((message) => message.body.alertId === alertId)?.body
    const expected =
      template === result
        ? { kind: 'result', result: 'Exit', symbol: 'MNQZ6', exitPrice: 21000.25, userId: owner, sourceId }
        : { kind: 'entry', action: 'LONG', symbol: 'MNQZ6', entryPrice: 21000.25, sl: 20990.5, tp: 21020.75, userId: owner, sourceId }
    t.match(published, expected, `${template.id}: the owner's ${expected.kind} from this source`)
  }
})
