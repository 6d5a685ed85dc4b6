// The console's intake log: webhooks by outcome, raw bodies on demand, "Older" paging, and the replay of a
// refused webhook (asked first: an accepted replay is traded like a new alert).
import { api, reasonOf } from './api.ts'
import type { ResponseOf } from './api-routes.ts'
import { byId, formatTime, say } from './dom.ts'
import { rowOf, type Column } from './card-table.ts'
import { emptyRow, rowButton, showConsoleError } from './console-table.ts'
import { timeElement } from './exchange-time.ts'

type Entry = ResponseOf<'GET /api/admin/intake'>['entries'][number]

const intake: { cursor: string | null } = { cursor: null }

async function replay(entry: Entry, node: HTMLButtonElement): Promise<void> {
  const question = `Replay the webhook received ${formatTime(entry.receivedAt)} (${entry.outcome})? If ingest accepts it now, it is traded like a new alert.`
  if (!window.confirm(question)) return
  node.disabled = true
  try {
    const { replay: answer } = await api('POST /api/admin/intake/:id/replay', { params: { id: String(entry.id) } })
    say(byId('intake-message'), `Replayed: ingest answered ${answer.statusCode}${answer.accepted ? ' (accepted)' : ''}.`, answer.accepted ? 'success' : 'error')
    await loadIntake(false)
  } catch (error) {
    node.disabled = false
    say(byId('intake-message'), `Not replayed: ${reasonOf(error)}`, 'error')
  }
}

/** The refusal's reason, and the stored body under it when asked for. */
function detail(entry: Entry): Node {
  const box = document.createElement('div')
  box.textContent = entry.reason ?? '–'
  if (entry.rawBody !== undefined) {
    const pre = document.createElement('pre')
    pre.className = 'raw'
    pre.textContent = entry.rawBody
    box.append(pre)
  }
  return box
}

const replayButton = (entry: Entry): string | Node =>
  entry.replayable ? rowButton('Replay', '', `Replay the webhook received ${formatTime(entry.receivedAt)}`, (node) => replay(entry, node)) : ''

const COLUMNS: readonly Column<Entry>[] = [
  { label: 'Received', value: (entry) => timeElement(entry.receivedAt) },
  { label: 'Outcome', value: (entry) => entry.outcome },
  { label: 'Status', value: (entry) => String(entry.statusCode) },
  { label: 'Source', value: (entry) => entry.source },
  { label: 'Reason', value: detail },
  { label: 'Action', value: replayButton, className: 'nowrap' },
]

const intakeRow = (entry: Entry): HTMLTableRowElement =>
  rowOf(COLUMNS, entry, (row) => {
    row.dataset.id = String(entry.id)
    row.dataset.outcome = entry.outcome
  })

export async function loadIntake(append: boolean): Promise<void> {
  const outcome = byId<HTMLSelectElement>('intake-outcome').value
  const raw = byId<HTMLInputElement>('intake-raw').checked
  const before = append && intake.cursor ? intake.cursor : undefined
  const page = await api('GET /api/admin/intake', { query: { limit: '20', before, ...(outcome ? { outcome } : {}), ...(raw ? { raw: 'true' as const } : {}) } })
  intake.cursor = page.nextCursor
  if (!append) byId('intake-body').replaceChildren()
  byId('intake-body').append(...page.entries.map(intakeRow))
  emptyRow(byId('intake-body'), 6, 'No webhooks.')
  byId('intake-more').hidden = intake.cursor === null
}

export function wireIntake(): void {
  byId('intake-filter').addEventListener('submit', (event) => {
    event.preventDefault()
    void loadIntake(false).catch(showConsoleError)
  })
  byId('intake-more').addEventListener('click', () => void loadIntake(true).catch(showConsoleError))
}
