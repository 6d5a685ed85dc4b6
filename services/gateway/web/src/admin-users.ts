// The home page's user list, for administrators: filter, page, and act on a user from its row (the actions
// are admin-actions.ts, shared with the console).
import { api, reasonOf } from './api.ts'
import type { ResponseOf } from './api-routes.ts'
import { approveUser, banEmail, liftBan, revokeUser } from './admin-actions.ts'
import { byId, element, formatTime, say } from './dom.ts'
import { beforeOf, showPager, type Trail } from './pager.ts'
import { labelFromHead } from './card-table.ts'

type UserRow = ResponseOf<'GET /api/admin/users'>['users'][number]

const PAGE_SIZE = 20
const list: Trail = { trail: [] }
const message = () => byId('admin-message')

function query() {
  const status = byId<HTMLSelectElement>('admin-status').value as 'pending' | 'approved' | 'all'
  const search = byId<HTMLInputElement>('admin-search').value.trim()
  return { limit: String(PAGE_SIZE), before: beforeOf(list), ...(status === 'all' ? {} : { status }), ...(search === '' ? {} : { search }) }
}

/**
 * Runs one action from its button: disabled meanwhile, a refusal said after `failure`, and on success the
 * list reloaded. `run` answers the success sentence, or null when cancelled.
 */
async function act(button: HTMLButtonElement, failure: string, run: () => Promise<string | null>): Promise<void> {
  button.disabled = true
  let done: string | null
  try {
    done = await run()
  } catch (error) {
    button.disabled = false
    say(message(), `${failure}: ${reasonOf(error)}`, 'error')
    return
  }
  if (done === null) {
    button.disabled = false
    return
  }
  if (await loadUsers()) say(message(), done, 'success')
  else say(message(), `${done} The list could not be refreshed.`, 'error')
}

function userRow(user: UserRow): HTMLTableRowElement {
  const row = element('tr')
  row.dataset.userId = user.userId
  const action = element('td')
  const email = user.email ?? user.userId
  const add = (label: string, className: string, failure: string, run: () => Promise<string | null>) => {
    const button = element('button', label, `button small ${className}`)
    button.type = 'button'
    button.addEventListener('click', () => void act(button, failure, run))
    action.append(button)
  }
  if (!user.approved && !user.banned) add('Approve', 'primary', `${email} not approved`, () => approveUser(user))
  // Administrators (ADMIN_EMAIL) cannot be revoked or banned here: the admin service refuses both.
  if (user.approved && !user.banned && user.role !== 'admin') add('Revoke', '', `${email} not revoked`, () => revokeUser(user))
  if (!user.banned && user.role !== 'admin' && user.email) add('Ban', 'danger', `${email} not banned`, () => banEmail(email))
  if (user.banned && user.email) add('Lift ban', '', `Ban of ${email} not lifted`, () => liftBan(email))
  row.append(
    element('td', user.email ?? ''),
    element('td', user.name ?? ''),
    element('td', formatTime(user.createdAt)),
    element('td', user.banned ? 'Banned' : user.approved ? 'Approved' : 'Awaiting approval'),
    action,
  )
  return row
}

function renderUsers({ users, nextCursor }: ResponseOf<'GET /api/admin/users'>): void {
  const body = byId('admin-users')
  body.replaceChildren(...users.map(userRow))
  if (users.length === 0) {
    const cell = element('td', 'No users match.', 'muted')
    cell.colSpan = 5
    const row = element('tr')
    row.append(cell)
    body.append(row)
  }
  labelFromHead(body)
  showPager('admin', list, nextCursor, loadUsers)
}

/** Reloads the list; true when it could. */
async function loadUsers(): Promise<boolean> {
  try {
    renderUsers(await api('GET /api/admin/users', { query: query() }))
    say(message(), '')
    return true
  } catch (error) {
    say(message(), `Users could not be loaded: ${reasonOf(error)}`, 'error')
    return false
  }
}

/** Administrators see the section (the admin service refuses everyone else anyway). */
export async function openAdministration(me: { role?: string }): Promise<void> {
  if (me.role !== 'admin') return
  byId('console-link').hidden = false
  const first = await api('GET /api/admin/users', { query: query() })
  byId('admin').hidden = false
  renderUsers(first)
  const reload = () => {
    list.trail = []
    void loadUsers()
  }
  byId('admin-filter').addEventListener('submit', (event) => {
    event.preventDefault()
    reload()
  })
  byId('admin-status').addEventListener('change', reload)
}
