// One account's risk settings on the Accounts page: the home page's risk section (risk-form.ts) drawn from
// `GET /api/accounts/:id/risk-engine/config` and saved with its POST. One account at a time: the form's ids
// are the home page's, so the page holds one form and "Risk settings" on a row loads that account into it.
import { api, isLeaving, reasonOf } from './api.ts'
import type { Account } from './account-text.ts'
import { byId, say } from './dom.ts'
import { fieldNamed, inTradersWords } from './risk-fields.ts'
import { markRiskField, readRiskForm, renderRiskForm, riskFormSaved } from './risk-form.ts'

let shown: Account | null = null

export async function showRisk(account: Account): Promise<void> {
  const message = byId('risk-message')
  say(message, '')
  markRiskField(undefined)
  try {
    const { config, isDefault } = await api('GET /api/accounts/:id/risk-engine/config', { params: { id: account.id } })
    shown = account
    renderRiskForm(config)
    byId('risk-title').textContent = `Risk settings of ${account.name}`
    const origin = isDefault ? 'Nothing saved yet: these are the defaults.' : 'As saved.'
    const primary = account.isPrimary ? " The primary account's risk settings are the home page's too." : ''
    byId('risk-note').textContent = `${origin}${primary}`
    const card = byId('risk')
    card.hidden = false
  } catch (error) {
    if (!isLeaving(error)) say(byId('action-message'), `The risk settings of ${account.name} could not be loaded: ${reasonOf(error)}.`, 'error')
  }
}

/** The account whose risk settings are shown was removed: the form goes with it. */
export function riskAccountRemoved(id: string): void {
  if (shown?.id !== id) return
  shown = null
  byId('risk').hidden = true
}

async function saveRisk(event: Event): Promise<void> {
  event.preventDefault()
  const message = byId('risk-message')
  // A refused save never leaves an earlier success standing.
  say(message, '')
  markRiskField(undefined)
  const account = shown
  if (account === null || !byId<HTMLFormElement>('risk-form').reportValidity()) return
  const config = readRiskForm()
  const button = byId<HTMLButtonElement>('save-risk')
  button.disabled = true
  say(message, 'Saving…')
  try {
    const saved = await api('POST /api/accounts/:id/risk-engine/config', { params: { id: account.id }, body: config })
    riskFormSaved(saved.config)
    say(message, `Risk settings of ${account.name} saved.`, 'success')
  } catch (error) {
    if (isLeaving(error)) return
    const reason = reasonOf(error)
    markRiskField(fieldNamed(reason))
    say(message, `Not saved: ${inTradersWords(reason, config.riskMode.mode)}.`, 'error')
  } finally {
    button.disabled = false
  }
}

export function wireRisk(): void {
  const form = byId<HTMLFormElement>('risk-form')
  form.addEventListener('submit', (event) => void saveRisk(event))
  // The browser refuses an out-of-bounds field before any submit event: that clears an earlier "saved" too.
  form.addEventListener('invalid', () => say(byId('risk-message'), ''), true)
}
