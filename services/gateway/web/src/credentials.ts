// The broker-credentials card: the stored summary, the form (DESIGN.md decision 13's body), removal after a
// confirmation, and "Test connection" (issue 25, item 4). The form is drawn from the broker registry
// (`GET /api/brokers`): each broker's label in the select and the chosen broker's fields in their order,
// so a broker added to the registry needs nothing here. Secrets leave the form once sent and are never shown again.
import { api, reasonOf } from './api.ts'
import type { ResponseOf, Routes } from './api-routes.ts'
import { brokerLabel, clearSecrets, drawBrokers, drawFields, readBrokerFields } from './broker-fields.ts'
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
  const broker = brokerLabel(credentials.broker)
  const user = credentials.usernameMasked ? `, user ${credentials.usernameMasked}` : ''
  summary.textContent = `Stored: ${broker} (${credentials.environment}), account ${credentials.accountId}${user}, updated ${formatTime(credentials.updatedAt)}.`
  byId<HTMLSelectElement>('cred-broker').value = credentials.broker
  byId<HTMLSelectElement>('cred-environment').value = credentials.environment
  byId<HTMLInputElement>('cred-account').value = credentials.accountId
  drawFields()
}

/** The body of DESIGN.md decision 13: secrets as typed, other text trimmed, empty optional fields left out. */
function readCredentials(): Body {
  const body = { broker: value('cred-broker'), environment: value('cred-environment'), accountId: value('cred-account').trim(), ...readBrokerFields() }
  // The select's options are the registry's names; the service checks the rest.
  return body as unknown as Body
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
  byId('cred-broker').addEventListener('change', drawFields)
}

export async function loadCredentials(): Promise<void> {
  const [list, { credentials }] = await Promise.all([api('GET /api/brokers'), api('GET /api/broker-credentials')])
  drawBrokers(list.brokers)
  renderCredentials(credentials)
}
