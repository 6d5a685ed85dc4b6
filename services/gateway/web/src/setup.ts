// The "Setting up the alert" card: the webhook URL, the user's user_id, and a TradingView message in each
// accepted form, filled in for this user. The webhook secret is never shown here (docs/decisions/web.md).
//
// Every message must work as pasted: TradingView fills `{{...}}` placeholders in the message only (never in
// the webhook URL), and only as written (`{{plot("Stop")}}` with plain quotes; JSON's escaped `\"` is not
// recognised). Plain quotes inside a JSON string break the JSON, so the stop and target are the script's
// plots by number, `{{plot_0}}` and `{{plot_1}}`: valid JSON before and after TradingView fills them.
// services/gateway/test/page/setup-templates.test.ts fires each template and posts it to ingest.

import { byId, element } from './dom.ts'
import { MODE_NEEDS, type RiskMode } from './risk-fields.ts'

/** One message the set-up card offers: where to send it (the webhook URL to paste) and what to paste. */
export interface AlertTemplate {
  id: string
  title: string
  url: string
  message: string
}

const SECRET_PLACEHOLDER = 'YOUR_WEBHOOK_SECRET'

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
 * The accepted forms (docs/alert-formats.md), each as `{id, title, url, message}`: the webhook URL to paste
 * into TradingView and the message to paste. The URL form carries the user (and secret) in the URL, which
 * TradingView sends as typed, and the alert as plain text: placeholders in the URL are never filled.
 */
export function alertTemplates(userId: string, webhookUrl: string, mode: RiskMode = 'fixed_fraction'): AlertTemplate[] {
  const values = { ...ALERT_FIELDS, ...(mode === 'alert_quantity' ? QUANTITY : {}), user_id: userId, secret: SECRET_PLACEHOLDER }
  const inUrl = new URL(webhookUrl)
  inUrl.searchParams.set('user_id', userId)
  inUrl.searchParams.set('secret', SECRET_PLACEHOLDER)
  return [
    { id: RECOMMENDED_ID, title: 'Recommended: paste this as the alert message', url: webhookUrl, message: JSON.stringify(values, null, 2) },
    { id: 'setup-message', title: 'JSON inside "message"', url: webhookUrl, message: JSON.stringify({ message: JSON.stringify(values) }, null, 2) },
    { id: 'setup-query', title: 'Your user_id in the webhook URL, plain-text message', url: inUrl.href, message: labelLines(ALERT_FIELDS) },
    { id: 'setup-text', title: 'Plain text, one "label: value" per line', url: webhookUrl, message: labelLines(values) },
  ]
}

async function copy(button: HTMLElement, text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    button.textContent = 'Copied'
  } catch {
    button.textContent = 'Select and copy by hand'
  }
  setTimeout(() => (button.textContent = 'Copy'), 2000)
}

function copyable(id: string, labelId: string, label: string, text: string): HTMLElement[] {
  const caption = document.createElement('p')
  caption.className = 'muted small'
  caption.id = `${id}-label`
  caption.textContent = label
  const pre = document.createElement('pre')
  pre.id = id
  pre.tabIndex = 0
  pre.setAttribute('aria-labelledby', `${labelId} ${caption.id}`)
  pre.textContent = text
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'button small'
  button.textContent = 'Copy'
  button.setAttribute('aria-describedby', `${labelId} ${caption.id}`)
  button.addEventListener('click', () => void copy(button, text))
  return [caption, pre, button]
}

function templateBlock({ id, title, url, message }: AlertTemplate, webhookUrl: string): HTMLElement {
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
    byId(button).addEventListener('click', () => void copy(byId(button), byId(source).textContent ?? ''))
  }
}
