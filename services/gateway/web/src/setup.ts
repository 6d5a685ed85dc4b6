// The "Setting up the alert" card: where to send alerts (a signal source's URL, made on the Signal sources
// page; or the shared webhook URL with the user's user_id), and a TradingView message in each accepted form.
// No message carries or asks for a secret (docs/decisions/web.md, issue 22). The Signal sources page shows
// the same forms for a new source's URL, without user_id (sources.ts).
//
// Every message must work as pasted: TradingView fills `{{...}}` placeholders in the message only (never in
// the webhook URL), and only as written (`{{plot("Stop")}}` with plain quotes; JSON's escaped `\"` is not
// recognised). Plain quotes inside a JSON string break the JSON, so the stop and target are the script's
// plots by number, `{{plot_0}}` and `{{plot_1}}`: valid JSON before and after TradingView fills them.
// services/gateway/test/page/setup-templates.test.ts fires each template and posts it to ingest.

import { copyable, copyText } from './copy-text.ts'
import { byId, element } from './dom.ts'
import { MODE_NEEDS, type RiskMode } from './risk-fields.ts'

/** One message the set-up card offers: where to send it (the webhook URL to paste) and what to paste. */
export interface AlertTemplate {
  id: string
  title: string
  url: string
  message: string
}

/** What TradingView fills in when the alert fires (a strategy's order; the first two plots as stop and target). */
const ALERT_FIELDS = {
  action: '{{strategy.order.action}}',
  symbol: '{{ticker}}',
  entryPrice: '{{close}}',
  sl: '{{plot_0}}',
  tp: '{{plot_1}}',
}

/** The alert's quantity, for the mode that trades it (a strategy's order size). */
const QUANTITY = { quantity: '{{strategy.order.contracts}}' }

/** The form the card recommends (and shows first): JSON as the alert's whole message. */
export const RECOMMENDED_ID = 'setup-json'

const labelLines = (values: Record<string, string>) => Object.entries(values).map(([key, value]) => `${key}: ${value}`).join('\n')

/**
 * The accepted entry forms (docs/alert-formats.md), each as `{id, title, url, message}`: the webhook URL to
 * paste into TradingView and the message to paste. Nothing secret is in them: a signal source's URL is its
 * own credential (issue 22). With a `userId` (the shared `/webhook/alert`, which needs one) each message names
 * the trader and a fourth form carries it in the URL, which TradingView sends as typed, with the alert as plain
 * text (placeholders in the URL are never filled). Without one (a source URL: its owner is the user) neither.
 */
export function alertTemplates(userId: string | null, webhookUrl: string, mode: RiskMode = 'fixed_fraction', prefix = 'setup'): AlertTemplate[] {
  const user: Record<string, string> = userId === null ? {} : { user_id: userId }
  const values: Record<string, string> = { ...ALERT_FIELDS, ...(mode === 'alert_quantity' ? QUANTITY : {}), ...user }
  const templates: AlertTemplate[] = [
    { id: RECOMMENDED_ID.replace('setup', prefix), title: 'Recommended: paste this as the alert message', url: webhookUrl, message: JSON.stringify(values, null, 2) },
    { id: `${prefix}-message`, title: 'JSON inside "message"', url: webhookUrl, message: JSON.stringify({ message: JSON.stringify(values) }, null, 2) },
  ]
  if (userId !== null) {
    const inUrl = new URL(webhookUrl)
    inUrl.searchParams.set('user_id', userId)
    templates.push({ id: `${prefix}-query`, title: 'Your user_id in the webhook URL, plain-text message', url: inUrl.href, message: labelLines(ALERT_FIELDS) })
  }
  templates.push({ id: `${prefix}-text`, title: 'Plain text, one "label: value" per line', url: webhookUrl, message: labelLines(values) })
  return templates
}

/**
 * A result alert (docs/alert-formats.md, "Exits are exits"): closes the trades this URL's entries opened, at the
 * broker's fill; `result` may also be TP or SL.
 */
export function resultTemplate(userId: string | null, webhookUrl: string, prefix = 'setup'): AlertTemplate {
  const values: Record<string, string> = { symbol: '{{ticker}}', result: 'Exit', exitPrice: '{{close}}', ...(userId === null ? {} : { user_id: userId }) }
  return { id: `${prefix}-result`, title: 'Result: closes the trades this source opened (Exit, TP or SL)', url: webhookUrl, message: JSON.stringify(values, null, 2) }
}

export function templateBlock({ id, title, url, message }: AlertTemplate, webhookUrl: string): HTMLElement {
  const block = document.createElement('div')
  block.className = 'template'
  const heading = document.createElement('h3')
  heading.id = `${id}-title`
  heading.textContent = title
  block.append(heading)
  // Only the URL form needs a webhook URL of its own; the others use the one above.
  if (url !== webhookUrl) block.append(...copyable(`${id}-url`, heading.id, 'Webhook URL', url))
  block.append(...copyable(id, heading.id, 'Message', message))
  return block
}

/** The recommended message first; the other accepted forms folded away under it. */
function renderTemplates(userId: string, webhookUrl: string, mode: RiskMode): void {
  const [recommended, ...others] = alertTemplates(userId, webhookUrl, mode).map((template) => templateBlock(template, webhookUrl))
  const more = element('details', undefined, 'other-forms')
  more.append(element('summary', 'Other accepted forms'), ...others)
  byId('setup-templates').replaceChildren(...(recommended ? [recommended] : []), more)
  byId('setup-needs').textContent = MODE_NEEDS[mode]
}

/** The sizing mode chosen in the risk section (the default until the section has loaded). */
const chosenMode = (): RiskMode => ((document.getElementById('risk-engine-riskMode-mode') as HTMLSelectElement | null)?.value as RiskMode | undefined) ?? 'fixed_fraction'

export function renderSetup(user: { userId: string }): void {
  const webhookUrl = new URL('/webhook/alert', window.location.origin).href
  byId('setup-webhook').textContent = webhookUrl
  byId('setup-user-id').textContent = user.userId
  renderTemplates(user.userId, webhookUrl, chosenMode())
  // The card says what the chosen mode needs, and its message carries it (risk-form.ts announces a change).
  document.addEventListener('signals:risk-mode', () => renderTemplates(user.userId, webhookUrl, chosenMode()))
  for (const [button, source] of [['copy-webhook', 'setup-webhook'], ['copy-user-id', 'setup-user-id']] as const) {
    byId(button).addEventListener('click', () => void copyText(byId(button), byId(source).textContent ?? ''))
  }
}
