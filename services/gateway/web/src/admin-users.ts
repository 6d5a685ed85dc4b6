// The home page's user list, for administrators: filter, page, and act on a user from its row (the actions
// are admin-actions.ts, shared with the console).
import { api, reasonOf } from './api.ts'
import type { ResponseOf } from './api-routes.ts'
import { approveUser, banEmail, liftBan, revokeUser } from './admin-actions.ts'
import { byId, element, say } from './dom.ts'
import { beforeOf, showPager, type Trail } from './pager.ts'
import { rowOf, type Column } from './card-table.ts'
import { emptyRow } from './console-table.ts'
import { timeElement } from './exchange-time.ts'

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

/** The row's buttons: what can be done to this user now. */
function actions(user: UserRow): Node {
  // A fragment: the buttons sit in the cell itself, and a user with none leaves it empty (no line on a phone).
  const box = document.createDocumentFragment()
  const email = user.email ?? user.userId
  const add = (label: string, className: string, failure: string, run: () => Promise<string | null>) => {
    const button = element('button', label, `button small ${className}`)
    button.type = 'button'
    button.addEventListener('click', () => void act(button, failure, run))
    box.append(button)
  }
  if (!user.approved && !user.banned) add('Approve', 'primary', `${email} not approved`, () => approveUser(user))
  // Administrators (ADMIN_EMAIL) cannot be revoked or banned here: the admin service refuses both.
  if (user.approved && !user.banned && user.role !== 'admin') add('Revoke', '', `${email} not revoked`, () => revokeUser(user))
  if (!user.banned && user.role !== 'admin' && user.email) add('Ban', 'danger', `${email} not banned`, () => banEmail(email))
  if (user.banned && user.email) add('Lift ban', '', `Ban of ${email} not lifted`, () => liftBan(email))
  return box
}

const COLUMNS: readonly Column<UserRow>[] = [
  { label: 'E-mail', value: (user) => user.email ?? '' },
  { label: 'Name', value: (user) => user.name ?? '' },
  { label: 'Signed up', value: (user) => timeElement(user.createdAt) },
  { label: 'Status', value: (user) => (user.banned ? 'Banned' : user.approved ? 'Approved' : 'Awaiting approval') },
  { label: 'Action', value: actions },
]

function renderUsers({ users, nextCursor }: ResponseOf<'GET /api/admin/users'>): void {
  const body = byId('admin-users')
  body.replaceChildren(
    ...users.map((user) =>
      rowOf(COLUMNS, user, (row) => {
        row.dataset.userId = user.userId
      }),
    ),
  )
  emptyRow(body, 5, 'No users match.')
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
