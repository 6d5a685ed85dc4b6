// The console's audit log, filtered by action and actor, people by e-mail (the id only when the user row is gone).
import { api } from './api.ts'
import { byId, formatTime } from './dom.ts'
import { cells, emptyRow, showConsoleError } from './console-table.ts'
import { beforeOf, showPager, type Trail } from './pager.ts'

const audit: Trail = { trail: [] }

export async function loadAudit(): Promise<void> {
  const action = byId<HTMLSelectElement>('audit-action').value
  const actor = byId<HTMLInputElement>('audit-actor').value.trim()
  const query = { limit: '20', before: beforeOf(audit), ...(action ? { action } : {}), ...(actor ? { actor } : {}) }
  const { entries, nextCursor } = await api('GET /api/admin/audit', { query })
  const body = byId('audit-body')
  body.replaceChildren()
  for (const entry of entries) {
    body.append(cells(document.createElement('tr'), formatTime(entry.createdAt), entry.actorEmail ?? entry.actorUserId, entry.action, entry.targetEmail ?? entry.target, entry.reason))
  }
  emptyRow(body, 5, 'No entries.')
  showPager('audit', audit, nextCursor, () => loadAudit().then(() => true, (error: unknown) => (showConsoleError(error), false)))
}

export function wireAudit(): void {
  byId('audit-filter').addEventListener('submit', (event) => {
    event.preventDefault()
    audit.trail = []
    void loadAudit().catch(showConsoleError)
  })
}
