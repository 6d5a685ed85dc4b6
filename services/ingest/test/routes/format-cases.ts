import type { Test } from 'tap'
import { redactSecretFields, type NormalizedAlert } from '@signals/contracts'
import { build } from '../helper.ts'

/** One alert posted as a platform documents it, with what must come of it. */
export interface FormatCase {
  label: string
  /** An object is sent as JSON; text as text/plain, as TradingView sends a message that is not valid JSON. */
  body: Record<string, unknown> | string
  /** The published message's fields that differ from an empty entry (`raw` defaults to the body as parsed). */
  published?: Partial<NormalizedAlert>
  /** Or the refusal's message, and its intake-log outcome (`invalid` unless said). */
  refused?: RegExp
  outcome?: 'invalid' | 'too_old'
}

type Comparable = Omit<NormalizedAlert, 'alertId' | 'receivedAt'>

const EMPTY_ENTRY: Omit<Comparable, 'userId' | 'raw'> = {
  version: 1, kind: 'entry', action: null, symbol: null, root: null, entryPrice: null, sl: null, tp: null, exitPrice: null, indicator: null,
  leverage: null, quantity: null, result: null, closes: null, isVendorTest: false, parseFailed: false, orderWord: null, closePart: null,
}

/** The body as ingest keeps it in `raw`: the parsed object (trailing commas forgiven) or the text. */
/** The payload as published: parsed, secret-named fields redacted (issue 22). */
function rawOf(body: FormatCase['body']): unknown {
  if (typeof body !== 'string') return redactSecretFields(body)
  try {
    return redactSecretFields(JSON.parse(body.replace(/,(\s*[}\]])/g, '$1')))
  } catch {
    return { _raw: true, text: redactSecretFields(body) }
  }
}

/**
 * Posts every case (each for its own user, given in the URL as a trader pasting an alert unchanged would)
 * and asserts the exact published message of each accepted one, the refusal of each refused one, an
 * intake-log entry for every request, and that nothing else was published.
 */
export async function assertFormatCases(t: Test, cases: readonly FormatCase[]): Promise<void> {
  const { app, watcher } = await build(t)
  const accepted: { index: number; alertId: string }[] = []
  for (const [index, formatCase] of cases.entries()) {
    const text = typeof formatCase.body === 'string'
    const response = await app.inject({
      method: 'POST',
      url: `/webhook/alert?user_id=trader-${index}`,
      headers: { 'content-type': text ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8' },
      payload: text ? formatCase.body : JSON.stringify(formatCase.body),
    })
    if (formatCase.refused) {
      t.equal(response.statusCode, 400, `${formatCase.label}: refused`)
      t.match(response.json(), { success: false, error: formatCase.refused }, `${formatCase.label}: says why`)
    } else {
      t.equal(response.statusCode, 200, `${formatCase.label}: accepted (${response.body})`)
      accepted.push({ index, alertId: response.json<{ alertId: string }>().alertId })
    }
  }
  const messages = await watcher.alertMessages(accepted.length)
  for (const { index, alertId } of accepted) {
    const formatCase = cases[index] as FormatCase
    const message = messages.find(({ body }) => body.alertId === alertId)
    const expected: Comparable = { ...EMPTY_ENTRY, userId: `trader-${index}`, raw: rawOf(formatCase.body), ...formatCase.published }
    t.equal(message?.subject, `alerts.${expected.kind}`, `${formatCase.label}: on alerts.${expected.kind}`)
    const { alertId: _id, receivedAt: _at, ...published } = message?.body ?? ({} as NormalizedAlert)
    t.same(published, expected, `${formatCase.label}: the published message`)
  }
  const entries = await watcher.intakeEntries(cases.length)
  const refusedOutcomes = cases.filter((formatCase) => formatCase.refused).map((formatCase) => formatCase.outcome ?? 'invalid').sort()
  t.same(entries.filter((entry) => entry.statusCode === 400).map((entry) => entry.outcome).sort(), refusedOutcomes, 'every refusal is in the intake log')
  t.equal(watcher.alerts.length, accepted.length, 'nothing published for a refused alert')
}
