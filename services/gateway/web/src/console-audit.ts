// The console's audit log, filtered by action and actor, people by e-mail (the id only when the user row is gone).
import { api } from './api.ts'
import type { ResponseOf } from './api-routes.ts'
import { byId } from './dom.ts'
import { rowOf, type Column } from './card-table.ts'
import { emptyRow, showConsoleError } from './console-table.ts'
import { timeElement } from './exchange-time.ts'
import { beforeOf, showPager, type Trail } from './pager.ts'

const audit: Trail = { trail: [] }

type Entry = ResponseOf<'GET /api/admin/audit'>['entries'][number]

const COLUMNS: readonly Column<Entry>[] = [
  { label: 'When', value: (entry) => timeElement(entry.createdAt) },
  { label: 'Actor', value: (entry) => entry.actorEmail ?? entry.actorUserId },
  { label: 'Action', value: (entry) => entry.action },
  { label: 'Target', value: (entry) => entry.targetEmail ?? entry.target },
  { label: 'Reason', value: (entry) => entry.reason ?? '–' },
]

export async function loadAudit(): Promise<void> {
  const action = byId<HTMLSelectElement>('audit-action').value
  const actor = byId<HTMLInputElement>('audit-actor').value.trim()
  const query = { limit: '20', before: beforeOf(audit), ...(action ? { action } : {}), ...(actor ? { actor } : {}) }
  const { entries, nextCursor } = await api('GET /api/admin/audit', { query })
  const body = byId('audit-body')
  body.replaceChildren(...entries.map((entry) => rowOf(COLUMNS, entry)))
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
