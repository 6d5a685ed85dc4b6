// "Add an account" on the Accounts page: a name and a broker account id under one of the trader's logins, or
// with a new login whose fields are the broker registry's (broker-fields.ts, as the home page's credentials
// form draws them). The body is `POST /api/accounts`'s: exactly one of `loginId` and `login`.
import { api, isLeaving, reasonOf } from './api.ts'
import type { Routes } from './api-routes.ts'
import { loginsOf, type Account } from './account-text.ts'
import { brokerLabel, clearSecrets, drawFields, readBrokerFields } from './broker-fields.ts'
import { byId, element, say } from './dom.ts'

type Body = Routes['POST /api/accounts']['body']

const value = (id: string) => byId<HTMLInputElement | HTMLSelectElement>(id).value

/** The "Login" select: a new login first, then each login the trader has; keeps the choice when still there. */
export function drawLogins(accounts: readonly Account[]): void {
  const select = byId<HTMLSelectElement>('account-login')
  const before = select.value
  const options = [{ id: '', text: 'A new login' }, ...loginsOf(accounts, brokerLabel)]
  select.replaceChildren(...options.map((login) => Object.assign(element('option', login.text), { value: login.id })))
  if (options.some((login) => login.id === before)) select.value = before
  showNewLogin()
}

/** The new login's fields only when a new login is chosen (disabled otherwise: they neither block nor send). */
function showNewLogin(): void {
  const fieldset = byId<HTMLFieldSetElement>('new-login')
  const fresh = value('account-login') === ''
  fieldset.hidden = !fresh
  fieldset.disabled = !fresh
}

function readBody(): Body {
  const common = { name: value('account-name'), brokerAccountId: value('account-broker-id').trim() }
  const loginId = value('account-login')
  if (loginId !== '') return { ...common, loginId }
  // The select's options are the registry's names; the service checks the broker's fields.
  const login = { broker: value('cred-broker'), environment: value('cred-environment'), ...readBrokerFields() }
  return { ...common, login: login as unknown as NonNullable<Body['login']> }
}

/** Empties the form after an add (a reset, so emptied required fields are not marked invalid); keeps the login and broker chosen. */
function clearForm(): void {
  const kept = ['account-login', 'cred-broker', 'cred-environment'].map((id) => [id, value(id)] as const)
  byId<HTMLFormElement>('add-form').reset()
  for (const [id, chosen] of kept) byId<HTMLSelectElement>(id).value = chosen
  drawFields()
}

async function add(event: Event, reload: () => Promise<void>): Promise<void> {
  event.preventDefault()
  const message = byId('add-message')
  const button = byId<HTMLButtonElement>('add-account')
  button.disabled = true
  say(message, 'Adding…')
  try {
    const { account } = await api('POST /api/accounts', { body: readBody() })
    clearSecrets()
    clearForm()
    const linked = account.isPrimary ? `The login is now your primary account's (${account.name}).` : `${account.name} is added, with live trading and automatic orders off.`
    say(message, linked, 'success')
  } catch (error) {
    if (!isLeaving(error)) say(message, `Not added: ${reasonOf(error)}.`, 'error')
  } finally {
    button.disabled = false
  }
  await reload()
}

export function wireAdd(reload: () => Promise<void>): void {
  byId('add-form').addEventListener('submit', (event) => void add(event, reload))
  byId('account-login').addEventListener('change', showNewLogin)
}
