// The Accounts page (issue 22, docs/decisions/accounts.md): the trader's broker accounts, the primary first,
// each with its broker, broker account id, switches and status; adding one under a login or a new login,
// renaming, removing (not the primary) and each one's risk settings. An additional account cannot go live
// yet: its switch is there, the row says so, and turning it on shows the service's 409 in its words.
import { api, isLeaving, reasonOf } from './api.ts'
import { drawLogins, wireAdd } from './account-add.ts'
import { riskAccountRemoved, showRisk, wireRisk } from './account-risk.ts'
import { brokerText, statusText, type Account } from './account-text.ts'
import { brokerLabel, drawBrokers, drawFields } from './broker-fields.ts'
import { fillRows, type Column } from './card-table.ts'
import { ask } from './dialog.ts'
import { byId, element, say } from './dom.ts'
import { openLive } from './live.ts'

function showError(what: string, error: unknown): void {
  if (isLeaving(error)) return
  const box = byId('page-error')
  box.textContent = `${what}: ${reasonOf(error)}.`
  box.hidden = false
}

/** Runs a change, reads the list again, then says how it went (so what is said matches what is shown). */
async function act(done: string, failed: string, call: () => Promise<unknown>): Promise<void> {
  byId('page-error').hidden = true
  say(byId('action-message'), '', 'info')
  let refusal: unknown = null
  try {
    await call()
  } catch (error) {
    refusal = error
  }
  await load()
  if (refusal === null) say(byId('action-message'), done, 'success')
  else showError(failed, refusal)
}

function actionButton(text: string, label: string, onClick: () => void, kind = ''): HTMLButtonElement {
  const button = element('button', text, `button small ${kind}`.trim())
  button.type = 'button'
  button.setAttribute('aria-label', label)
  button.addEventListener('click', onClick)
  return button
}

type SwitchName = 'liveTrading' | 'autoPlaceOrders'
const SWITCH_WORDS: Record<SwitchName, string> = { liveTrading: 'Live trading', autoPlaceOrders: 'Automatic orders' }

/** A switch of the row: saved at once; a refusal (an additional account going live: 409) is said and undone. */
function switchBox(account: Account, name: SwitchName): HTMLElement {
  const box = element('input')
  box.type = 'checkbox'
  box.checked = account[name]
  box.setAttribute('aria-label', `${SWITCH_WORDS[name]} on ${account.name}`)
  box.addEventListener('change', () => {
    const on = box.checked
    const done = `${SWITCH_WORDS[name]} on ${account.name} is ${on ? 'on' : 'off'}.`
    void act(done, `${SWITCH_WORDS[name]} on ${account.name} not switched ${on ? 'on' : 'off'}`, () => api('PATCH /api/accounts/:id', { params: { id: account.id }, body: { [name]: on } }))
  })
  const label = element('label', undefined, 'check')
  label.append(box, ` ${on(account[name])}`)
  return label
}

const on = (value: boolean) => (value ? 'On' : 'Off')

async function rename(account: Account): Promise<void> {
  const input = byId<HTMLInputElement>('rename-name')
  input.value = account.name
  if (!(await ask('rename-dialog', 'rename-confirm', 'rename-cancel'))) return
  const name = input.value
  await act(`${account.name} is now ${name.trim()}.`, `${account.name} was not renamed`, () => api('PATCH /api/accounts/:id', { params: { id: account.id }, body: { name } }))
}

async function remove(account: Account): Promise<void> {
  byId('delete-text').textContent = `${account.name} is removed with its risk settings; its login goes too when no other account uses it. Your other accounts are not changed.`
  if (!(await ask('delete-dialog', 'delete-confirm', 'delete-cancel'))) return
  await act(`${account.name} is removed.`, `${account.name} was not removed`, async () => {
    await api('DELETE /api/accounts/:id', { params: { id: account.id } })
    riskAccountRemoved(account.id)
  })
}

function actions(account: Account): Node {
  const box = element('div', undefined, 'row-actions')
  box.append(
    actionButton('Risk settings', `Risk settings of ${account.name}`, () => void showRisk(account)),
    actionButton('Rename', `Rename ${account.name}`, () => void rename(account)),
  )
  // The primary stays (the single-account settings address it): no button that could only be refused.
  if (!account.isPrimary) box.append(actionButton('Remove', `Remove ${account.name}`, () => void remove(account), 'danger'))
  return box
}

function nameCell(account: Account): Node {
  const box = element('span', account.name)
  if (account.isPrimary) box.append(' ', element('strong', 'Primary', 'badge'))
  return box
}

const COLUMNS: Column<Account>[] = [
  { label: 'Name', value: nameCell },
  { label: 'Broker', value: (account) => brokerText(account, brokerLabel) },
  { label: 'Broker account id', value: (account) => account.brokerAccountId ?? '–' },
  { label: 'Live trading', value: (account) => switchBox(account, 'liveTrading') },
  { label: 'Place orders automatically', value: (account) => switchBox(account, 'autoPlaceOrders') },
  { label: 'Status', value: (account) => statusText(account), className: 'small' },
  { label: 'Actions', value: actions },
]

async function load(): Promise<void> {
  try {
    const { accounts } = await api('GET /api/accounts')
    fillRows(byId('accounts-body'), COLUMNS, accounts, (row, account) => {
      row.dataset.accountId = account.id
      if (account.isPrimary) row.dataset.primary = 'true'
    })
    byId('accounts-empty').hidden = accounts.length > 0
    drawLogins(accounts)
  } catch (error) {
    showError('Your accounts could not be loaded', error)
  }
}

async function start(): Promise<void> {
  wireAdd(load)
  wireRisk()
  byId('cred-broker').addEventListener('change', drawFields)
  try {
    drawBrokers((await api('GET /api/brokers')).brokers)
  } catch (error) {
    showError('The brokers could not be loaded', error)
  }
  await load()
  // A status change (the home page's switches, a ban, the broker connection) or a reconnect: read the list again.
  let first = true
  openLive({
    onNotice: (notice) => {
      if (notice.kind === 'status') void load()
    },
    onState: (state) => {
      if (state === 'connected' && !first) void load()
      if (state === 'connected') first = false
    },
  })
}

void start()
