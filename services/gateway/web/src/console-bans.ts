// The console's bans: the list (paged), lifting one, and banning any e-mail with a reason (admin-actions.ts
// asks first).
import { api, reasonOf } from './api.ts'
import { banEmail, liftBan } from './admin-actions.ts'
import { byId, formatTime, say } from './dom.ts'
import { cells, emptyRow, rowButton, showConsoleError } from './console-table.ts'
import { loadPending } from './console-pending.ts'
import { beforeOf, showPager, type Trail } from './pager.ts'

const PAGE = '20'
const bans: Trail = { trail: [] }
const message = () => byId('bans-message')

export async function loadBans(): Promise<void> {
  const { bans: list, nextCursor } = await api('GET /api/admin/bans', { query: { limit: PAGE, before: beforeOf(bans) } })
  const body = byId('bans-body')
  body.replaceChildren()
  for (const ban of list) {
    const lift = rowButton('Lift', '', `Lift the ban of ${ban.email}`, async (node) => {
      node.disabled = true
      try {
        say(message(), await liftBan(ban.email), 'success')
        await loadBans()
      } catch (error) {
        node.disabled = false
        say(message(), `Ban of ${ban.email} not lifted: ${reasonOf(error)}`, 'error')
      }
    })
    body.append(cells(document.createElement('tr'), ban.email, ban.reason, formatTime(ban.createdAt), lift))
  }
  emptyRow(body, 4, 'No bans.')
  showPager('bans', bans, nextCursor, () => loadBans().then(() => true, (error: unknown) => (showConsoleError(error), false)))
}

async function addBan(event: Event): Promise<void> {
  event.preventDefault()
  const email = byId<HTMLInputElement>('ban-email').value.trim()
  try {
    const done = await banEmail(email, byId<HTMLInputElement>('ban-reason').value)
    if (done === null) return
    say(message(), done, 'success')
    byId<HTMLFormElement>('ban-form').reset()
    await Promise.all([loadBans(), loadPending()])
  } catch (error) {
    say(message(), `${email} not banned: ${reasonOf(error)}`, 'error')
  }
}

export function wireBans(): void {
  byId('ban-form').addEventListener('submit', (event) => void addBan(event))
}
