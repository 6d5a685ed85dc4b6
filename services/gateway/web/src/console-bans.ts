// The console's bans: the list (paged), lifting one, and banning any e-mail with a reason (admin-actions.ts
// asks first).
import { api, reasonOf } from './api.ts'
import { banEmail, liftBan } from './admin-actions.ts'
import type { ResponseOf } from './api-routes.ts'
import { byId, say } from './dom.ts'
import { rowOf, type Column } from './card-table.ts'
import { emptyRow, rowButton, showConsoleError } from './console-table.ts'
import { timeElement } from './exchange-time.ts'
import { loadPending } from './console-pending.ts'
import { beforeOf, showPager, type Trail } from './pager.ts'

const PAGE = '20'
const bans: Trail = { trail: [] }
const message = () => byId('bans-message')

type Ban = ResponseOf<'GET /api/admin/bans'>['bans'][number]

function liftButton(ban: Ban): HTMLButtonElement {
  return rowButton('Lift', '', `Lift the ban of ${ban.email}`, async (node) => {
    node.disabled = true
    try {
      say(message(), await liftBan(ban.email), 'success')
      await loadBans()
    } catch (error) {
      node.disabled = false
      say(message(), `Ban of ${ban.email} not lifted: ${reasonOf(error)}`, 'error')
    }
  })
}

const COLUMNS: readonly Column<Ban>[] = [
  { label: 'E-mail', value: (ban) => ban.email },
  { label: 'Reason', value: (ban) => ban.reason ?? '–' },
  { label: 'Since', value: (ban) => timeElement(ban.createdAt) },
  { label: 'Action', value: liftButton, className: 'nowrap' },
]

export async function loadBans(): Promise<void> {
  const { bans: list, nextCursor } = await api('GET /api/admin/bans', { query: { limit: PAGE, before: beforeOf(bans) } })
  const body = byId('bans-body')
  body.replaceChildren(...list.map((ban) => rowOf(COLUMNS, ban)))
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
