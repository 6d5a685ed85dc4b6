// The Signal sources page (issue 22): the trader's own webhook URLs (`/webhook/s/<token>`), the operator's
// sources they may subscribe to, and their subscriptions with each one's size rule. A URL's token is kept
// hashed, so the full URL is shown once, when the source is made or rotated, with the alert messages to paste.
import { api, isLeaving, reasonOf } from './api.ts'
import type { ResponseOf } from './api-routes.ts'
import { fillRows, type Column } from './card-table.ts'
import { copyText } from './copy-text.ts'
import { ask } from './dialog.ts'
import { byId, element, say } from './dom.ts'
import { timeElement } from './exchange-time.ts'
import { MODE_NEEDS, type RiskMode } from './risk-fields.ts'
import { alertTemplates, resultTemplate, templateBlock } from './setup.ts'
import { hiddenSourceUrl, sizeRuleText, subscribedText } from './source-text.ts'

type Source = ResponseOf<'GET /api/signal-sources'>['sources'][number]
type SourceWithUrl = ResponseOf<'POST /api/signal-sources'>

/** The sizing mode (an `alert_quantity` account's messages carry the quantity); the default until read. */
let mode: RiskMode = 'fixed_fraction'
/** The source whose URL the "fresh" card shows (hidden when that source is deleted). */
let freshId: string | null = null

function showError(what: string, error: unknown): void {
  if (isLeaving(error)) return
  const box = byId('page-error')
  box.textContent = `${what}: ${reasonOf(error)}.`
  box.hidden = false
}

function actionButton(text: string, label: string, onClick: () => void, kind = ''): HTMLButtonElement {
  const button = element('button', text, `button small ${kind}`.trim())
  button.type = 'button'
  button.setAttribute('aria-label', label)
  button.addEventListener('click', onClick)
  return button
}

/** The URL and its messages, shown this once (the token is not stored). */
function showUrl(made: SourceWithUrl, rotated: boolean): void {
  freshId = made.source.id
  byId('fresh-title').textContent = rotated ? `The new URL of ${made.source.name}` : `The URL of ${made.source.name}`
  byId('fresh-url').textContent = made.url
  const templates = [...alertTemplates(null, made.url, mode, 'fresh'), resultTemplate(null, made.url, 'fresh')]
  byId('fresh-templates').replaceChildren(...templates.map((template) => templateBlock(template, made.url)))
  byId('fresh-needs').textContent = `${MODE_NEEDS[mode]} Paste one message as the alert's message; {{plot_0}} and {{plot_1}} are your script's first two plots, sent as the stop and the target. No user_id and no secret: the URL says who you are.`
  const card = byId('fresh')
  card.hidden = false
  card.focus()
}

async function act(done: string, failed: string, call: () => Promise<unknown>): Promise<void> {
  byId('page-error').hidden = true
  try {
    await call()
    say(byId('action-message'), done, 'success')
  } catch (error) {
    say(byId('action-message'), '', 'info')
    showError(failed, error)
  }
  await load()
}

async function rotate(source: Source): Promise<void> {
  byId('rotate-text').textContent = `${source.name} gets a new URL, shown once. The old URL stops working at once: alerts still sent to it are refused until you paste the new one into TradingView.`
  if (!(await ask('rotate-dialog', 'rotate-confirm', 'rotate-cancel'))) return
  await act(`${source.name} has a new URL: copy it below.`, `${source.name} was not rotated`, async () => showUrl(await api('POST /api/signal-sources/:id/rotate', { params: { id: source.id } }), true))
}

async function remove(source: Source): Promise<void> {
  byId('delete-text').textContent = `${source.name}'s URL stops working for good; alerts sent to it are refused. Trades it opened keep their stop and target.`
  if (!(await ask('delete-dialog', 'delete-confirm', 'delete-cancel'))) return
  await act(`${source.name} is deleted.`, `${source.name} was not deleted`, async () => {
    await api('DELETE /api/signal-sources/:id', { params: { id: source.id } })
    if (freshId === source.id) byId('fresh').hidden = true
  })
}

function subscribe(source: Source, on: boolean): Promise<void> {
  const body = { subscriptions: on ? [{ sizeRule: 'account' as const }] : [] }
  const done = on ? `You subscribe to ${source.name}: its entries are sized by your risk settings.` : `You no longer subscribe to ${source.name}.`
  return act(done, on ? `Not subscribed to ${source.name}` : `Still subscribed to ${source.name}`, () => api('PUT /api/signal-sources/:id/subscriptions', { params: { id: source.id }, body }))
}

function subscribeButton(source: Source): HTMLButtonElement {
  const on = source.subscriptions.length === 0
  return actionButton(on ? 'Subscribe' : 'Unsubscribe', `${on ? 'Subscribe to' : 'Unsubscribe from'} ${source.name}`, () => void subscribe(source, on))
}

function mineActions(source: Source): Node {
  const box = element('div', undefined, 'row-actions')
  box.append(
    actionButton('Rotate', `Rotate the URL of ${source.name}`, () => void rotate(source)),
    subscribeButton(source),
    actionButton('Delete', `Delete ${source.name}`, () => void remove(source), 'danger'),
  )
  return box
}

const MINE: Column<Source>[] = [
  { label: 'Name', value: (source) => source.name },
  { label: 'URL', value: () => `${hiddenSourceUrl(window.location.origin)} (the rest was shown when made or rotated)`, className: 'small' },
  { label: 'Made', value: (source) => timeElement(source.createdAt) },
  { label: 'Rotated', value: (source) => (source.rotatedAt === null ? 'Never' : timeElement(source.rotatedAt)) },
  { label: 'Subscribed', value: (source) => subscribedText(source.subscriptions) },
  { label: 'Actions', value: mineActions },
]

const OPERATOR: Column<Source>[] = [
  { label: 'Name', value: (source) => source.name },
  { label: 'Made', value: (source) => timeElement(source.createdAt) },
  { label: 'Subscribed', value: (source) => subscribedText(source.subscriptions) },
  { label: 'Action', value: subscribeButton },
]

function saveSizeRule(source: Source, multiplier: string | null): Promise<void> {
  const body = { subscriptions: [multiplier === null ? { sizeRule: 'account' as const } : { sizeRule: 'multiplier' as const, multiplier: Number(multiplier) }] }
  const done = multiplier === null ? `${source.name}'s entries are sized by your risk settings.` : `${source.name}'s entries are sized as the alert's quantity × ${multiplier}, within your risk limits.`
  return act(done, `The size rule of ${source.name} was not saved`, () => api('PUT /api/signal-sources/:id/subscriptions', { params: { id: source.id }, body }))
}

/**
 * The size rule's editor: the account's risk settings, or the alert's quantity times a multiplier (always held
 * by the account's limits). The default source (the spec's route) is always sized by the risk settings.
 */
function sizeRuleEditor(source: Source): Node {
  if (source.isDefault) return element('span', 'Always by your risk settings', 'muted small')
  const current = source.subscriptions[0]
  const form = element('form', undefined, 'row-actions')
  const rule = element('select')
  rule.setAttribute('aria-label', `Size rule of ${source.name}`)
  rule.append(new Option('By my risk settings', 'account'), new Option("The alert's quantity ×", 'multiplier'))
  rule.value = current?.sizeRule ?? 'account'
  const factor = element('input')
  Object.assign(factor, { type: 'number', min: '0.01', max: '100', step: '0.01', required: true, value: String(current?.multiplier ?? 1) })
  factor.setAttribute('aria-label', `Multiplier of ${source.name}`)
  factor.hidden = rule.value !== 'multiplier'
  rule.addEventListener('change', () => (factor.hidden = rule.value !== 'multiplier'))
  const save = element('button', 'Save', 'button small')
  save.setAttribute('aria-label', `Save the size rule of ${source.name}`)
  form.append(rule, factor, save)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void saveSizeRule(source, rule.value === 'multiplier' ? factor.value : null)
  })
  return form
}

const SUBSCRIPTIONS: Column<Source>[] = [
  { label: 'Source', value: (source) => source.name },
  { label: 'From', value: (source) => (source.kind === 'trader' ? 'You' : 'The operator') },
  { label: 'Size', value: (source) => source.subscriptions.map(sizeRuleText).join('; ') },
  { label: 'Change the size', value: sizeRuleEditor },
]

function fill(name: string, columns: Column<Source>[], sources: Source[]): void {
  fillRows(byId(`${name}-body`), columns, sources, (row, source) => (row.dataset.sourceId = source.id))
  byId(`${name}-empty`).hidden = sources.length > 0
}

async function load(): Promise<void> {
  try {
    const { sources } = await api('GET /api/signal-sources')
    fill('mine', MINE, sources.filter((source) => source.kind === 'trader'))
    fill('operator', OPERATOR, sources.filter((source) => source.kind === 'operator'))
    fill('subscriptions', SUBSCRIPTIONS, sources.filter((source) => source.subscriptions.length > 0))
  } catch (error) {
    showError('Your sources could not be loaded', error)
  }
}

async function make(event: SubmitEvent): Promise<void> {
  event.preventDefault()
  const input = byId<HTMLInputElement>('source-name')
  const message = byId('source-message')
  say(message, '', 'info')
  try {
    const made = await api('POST /api/signal-sources', { body: { name: input.value } })
    byId<HTMLFormElement>('source-form').reset()
    say(message, `${made.source.name} is made, and you subscribe to it. Copy its URL below.`, 'success')
    showUrl(made, false)
  } catch (error) {
    if (!isLeaving(error)) say(message, `Not made: ${reasonOf(error)}.`, 'error')
  }
  await load()
}

byId<HTMLFormElement>('source-form').addEventListener('submit', (event) => void make(event))
byId('copy-fresh-url').addEventListener('click', () => void copyText(byId('copy-fresh-url'), byId('fresh-url').textContent ?? ''))
void api('GET /api/risk-engine/config').then(({ config }) => (mode = config.riskMode.mode), () => undefined)
void load()
