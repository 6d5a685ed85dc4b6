// The broker-credentials card: the stored summary, the form (DESIGN.md decision 13's body; Tradovate's API
// fields only for Tradovate), removal after a confirmation, and "Test connection" (issue 25, item 4). Secrets
// leave the form once sent and are never shown again.
import { api, reasonOf } from './api.ts'
import type { ResponseOf, Routes } from './api-routes.ts'
import { byId, formatTime, say } from './dom.ts'
import { refreshStatus } from './status-card.ts'

type Stored = ResponseOf<'GET /api/broker-credentials'>['credentials']
type Body = Routes['PUT /api/broker-credentials']['body']

const value = (id: string) => byId<HTMLInputElement | HTMLSelectElement>(id).value

function renderCredentials(credentials: Stored | null | undefined): void {
  const summary = byId('credentials-summary')
  byId('delete-credentials').hidden = !credentials
  if (!credentials) {
    summary.textContent = 'No broker credentials stored. Live trading needs them.'
    return
  }
  const broker = credentials.broker === 'tradovate' ? 'Tradovate' : 'Paper'
  const user = credentials.usernameMasked ? `, user ${credentials.usernameMasked}` : ''
  summary.textContent = `Stored: ${broker} (${credentials.environment}), account ${credentials.accountId}${user}, updated ${formatTime(credentials.updatedAt)}.`
  byId<HTMLSelectElement>('cred-broker').value = credentials.broker
  byId<HTMLSelectElement>('cred-environment').value = credentials.environment
  byId<HTMLInputElement>('cred-account').value = credentials.accountId
  toggleTradovateFields()
}

function toggleTradovateFields(): void {
  const tradovate = value('cred-broker') === 'tradovate'
  byId('tradovate-fields').hidden = !tradovate
  for (const id of ['cred-app-id', 'cred-app-version', 'cred-cid', 'cred-sec']) byId<HTMLInputElement>(id).required = tradovate
}

/** The body of DESIGN.md decision 13; optional fields are left out rather than sent empty. */
function readCredentials(): Body {
  const body: Record<string, string> = {
    broker: value('cred-broker'),
    environment: value('cred-environment'),
    accountId: value('cred-account').trim(),
    username: value('cred-username').trim(),
    password: value('cred-password'),
  }
  if (body.broker === 'tradovate') {
    const optional = { appId: 'cred-app-id', appVersion: 'cred-app-version', cid: 'cred-cid', sec: 'cred-sec', deviceId: 'cred-device' }
    for (const [key, id] of Object.entries(optional)) {
      const typed = key === 'cid' || key === 'sec' ? value(id) : value(id).trim()
      if (typed !== '') body[key] = typed
    }
  }
  // The select's options are the schema's values; the service checks the rest.
  return body as unknown as Body
}

function clearSecrets(): void {
  for (const id of ['cred-password', 'cred-cid', 'cred-sec']) byId<HTMLInputElement>(id).value = ''
}

async function saveCredentials(event: Event): Promise<void> {
  event.preventDefault()
  const message = byId('credentials-message')
  if (!byId<HTMLFormElement>('credentials-form').reportValidity()) return
  const button = byId<HTMLButtonElement>('save-credentials')
  button.disabled = true
  say(message, 'Saving…')
  try {
    const { credentials, test } = await api('PUT /api/broker-credentials', { body: readCredentials() })
    clearSecrets()
    renderCredentials(credentials)
    // Saved whatever the broker said; its answer is shown at once (issue 25, item 4).
    if (test === undefined) say(message, 'Credentials saved.', 'success')
    else if (test.ok) say(message, `Credentials saved. ${test.detail}`, 'success')
    else say(message, `Credentials saved, but the login failed: ${test.detail}`, 'error')
    await refreshStatus()
  } catch (error) {
    say(message, `Credentials not saved: ${reasonOf(error)}`, 'error')
  } finally {
    button.disabled = false
  }
}

async function deleteCredentials(): Promise<void> {
  const message = byId('credentials-message')
  if (!window.confirm('Remove the stored broker credentials? Live trading cannot run without them.')) return
  try {
    await api('DELETE /api/broker-credentials')
    clearSecrets()
    renderCredentials(null)
    say(message, 'Credentials removed.', 'success')
    await refreshStatus()
  } catch (error) {
    say(message, `Credentials not removed: ${reasonOf(error)}`, 'error')
  }
}

async function testCredentials(): Promise<void> {
  const out = byId('credentials-message')
  const button = byId<HTMLButtonElement>('test-credentials')
  button.disabled = true
  say(out, 'Trying the login at the broker…')
  try {
    const { test } = await api('POST /api/broker-credentials/test')
    say(out, test.detail, test.ok ? 'success' : 'error')
  } catch (error) {
    say(out, `The login could not be tried: ${reasonOf(error)}`, 'error')
  } finally {
    button.disabled = false
  }
}

export function wireCredentials(): void {
  byId('credentials-form').addEventListener('submit', (event) => void saveCredentials(event))
  byId('delete-credentials').addEventListener('click', () => void deleteCredentials())
  byId('test-credentials').addEventListener('click', () => void testCredentials())
  byId('cred-broker').addEventListener('change', toggleTradovateFields)
}

export async function loadCredentials(): Promise<void> {
  const { credentials } = await api('GET /api/broker-credentials')
  renderCredentials(credentials)
}
