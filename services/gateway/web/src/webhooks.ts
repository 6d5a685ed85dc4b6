// The Webhooks page (issue 25, item 5): every webhook that named the trader — entries, exits, results —
// with what became of it: accepted, a duplicate, or refused and why (malformed JSON says where it broke),
// and what was sent (secrets redacted by ingest), newest first.
import { api } from './api.ts'
import type { ResponseOf } from './api-routes.ts'
import { fillRows, type Column } from './card-table.ts'
import { byId } from './dom.ts'
import { timeElement } from './exchange-time.ts'
import { intakeKindText, intakeOutcomeText, isRefused } from './broker-view.ts'

type Entry = ResponseOf<'GET /api/intake'>['entries'][number]

const PAGE = 25

function sentBody(entry: Entry): string | Node {
  if (entry.body === undefined || entry.body === '') return '–'
  const details = document.createElement('details')
  const summary = document.createElement('summary')
  summary.textContent = entry.bodyTruncated ? 'Show (the start only)' : 'Show'
  const pre = document.createElement('pre')
  pre.className = 'raw'
  pre.textContent = entry.body
  details.append(summary, pre)
  return details
}

const COLUMNS: Column<Entry>[] = [
  { label: 'Received', value: (entry) => timeElement(entry.receivedAt) },
  { label: 'Kind', value: (entry) => intakeKindText(entry.kind) },
  { label: 'Outcome', value: intakeOutcomeText, className: 'outcome' },
  { label: 'What was sent', value: sentBody },
]

let shown: Entry[] = []
let cursor: string | null = null

function showError(error: Error): void {
  const box = byId('page-error')
  box.textContent = `Your webhooks could not be loaded: ${error.message}.`
  box.hidden = false
}

/** The filter as the server applies it ("refused" is every outcome but accepted and duplicate). */
function filter(): { outcome?: 'accepted' | 'duplicate'; refused?: 'true' } {
  const value = byId<HTMLSelectElement>('intake-show').value
  if (value === 'accepted' || value === 'duplicate') return { outcome: value }
  return value === 'refused' ? { refused: 'true' } : {}
}

async function load(append: boolean): Promise<void> {
  const query = { limit: String(PAGE), raw: 'true' as const, ...filter(), ...(append && cursor ? { before: cursor } : {}) }
  const page = await api('GET /api/intake', { query })
  cursor = page.nextCursor
  shown = append ? [...shown, ...page.entries] : page.entries
  fillRows(byId('intake-body'), COLUMNS, shown, (row, entry) => {
    row.dataset.outcome = isRefused(entry.outcome) ? 'refused' : entry.outcome
    row.dataset.kind = entry.kind ?? ''
  })
  byId('intake-empty').hidden = shown.length > 0
  byId('intake-empty').textContent = 'No webhook of this kind has named you yet.'
  byId('intake-more').hidden = cursor === null
  byId('page-error').hidden = true
}

byId('intake-show').addEventListener('change', () => void load(false).catch(showError))
byId('intake-filter').addEventListener('submit', (event) => event.preventDefault())
byId('intake-more').addEventListener('click', () => void load(true).catch(showError))
void load(false).catch(showError)
