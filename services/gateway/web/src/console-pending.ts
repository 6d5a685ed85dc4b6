// The console's users awaiting approval, each with an Approve button (admin-actions.ts).
import { api, reasonOf } from './api.ts'
import { approveUser } from './admin-actions.ts'
import type { ResponseOf } from './api-routes.ts'
import { byId, say } from './dom.ts'
import { rowOf, type Column } from './card-table.ts'
import { emptyRow, rowButton } from './console-table.ts'
import { timeElement } from './exchange-time.ts'

type User = ResponseOf<'GET /api/admin/users'>['users'][number]

function approveButton(user: User): HTMLButtonElement {
  return rowButton('Approve', 'primary', `Approve ${user.email}`, async (node) => {
    node.disabled = true
    try {
      say(byId('users-message'), await approveUser(user), 'success')
      await loadPending()
    } catch (error) {
      node.disabled = false
      say(byId('users-message'), `${user.email} not approved: ${reasonOf(error)}`, 'error')
    }
  })
}

const COLUMNS: readonly Column<User>[] = [
  { label: 'E-mail', value: (user) => user.email ?? user.userId },
  { label: 'Name', value: (user) => user.name ?? '–' },
  { label: 'Signed up', value: (user) => timeElement(user.createdAt) },
  { label: 'Action', value: approveButton, className: 'nowrap' },
]

export async function loadPending(): Promise<void> {
  const { users } = await api('GET /api/admin/users', { query: { status: 'pending', limit: '50' } })
  const body = byId('pending-users')
  body.replaceChildren(
    ...users.map((user) =>
      rowOf(COLUMNS, user, (row) => {
        row.dataset.email = user.email ?? ''
      }),
    ),
  )
  emptyRow(body, 4, 'Nobody is waiting.')
}
