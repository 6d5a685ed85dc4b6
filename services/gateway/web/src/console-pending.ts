// The console's users awaiting approval, each with an Approve button (admin-actions.ts).
import { api, reasonOf } from './api.ts'
import { approveUser } from './admin-actions.ts'
import { byId, formatTime, say } from './dom.ts'
import { cells, emptyRow, rowButton } from './console-table.ts'

export async function loadPending(): Promise<void> {
  const { users } = await api('GET /api/admin/users', { query: { status: 'pending', limit: '50' } })
  const body = byId('pending-users')
  body.replaceChildren()
  for (const user of users) {
    const row = document.createElement('tr')
    row.dataset.email = user.email
    const approve = rowButton('Approve', 'primary', `Approve ${user.email}`, async (node) => {
      node.disabled = true
      try {
        say(byId('users-message'), await approveUser(user), 'success')
        await loadPending()
      } catch (error) {
        node.disabled = false
        say(byId('users-message'), `${user.email} not approved: ${reasonOf(error)}`, 'error')
      }
    })
    body.append(cells(row, user.email, user.name, formatTime(user.createdAt), approve))
  }
  emptyRow(body, 4, 'Nobody is waiting.')
}
