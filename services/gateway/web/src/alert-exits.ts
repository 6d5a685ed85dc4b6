// The Alerts card's exits and results (issue 25, item 5): the latest webhooks that named the trader and
// that ingest read as an exit or a result (TP, SL, Exit). They make no alert record (a result closes
// trades), so they are read from the trader's intake and matched with the trades that name them as their
// close. Every webhook, entries included, is on the Webhooks page.
import { api } from './api.ts'
import type { ResponseOf } from './api-routes.ts'
import { fillRows, type Column } from './card-table.ts'
import { byId } from './dom.ts'
import { timeElement } from './exchange-time.ts'
import { exitOutcomeText } from './outcomes.ts'
import { dollars } from './tick-price.ts'

type Entry = ResponseOf<'GET /api/intake'>['entries'][number]

const SHOWN = '10'
/** The trades an exit is looked for in: the latest (an exit closes recent trades). */
const TRADES = '100'

export async function refreshExits(): Promise<void> {
  const [{ entries }, { trades }] = await Promise.all([api('GET /api/intake', { query: { kind: 'result', limit: SHOWN } }), api('GET /api/trades', { query: { limit: TRADES } })])
  const columns: Column<Entry>[] = [
    { label: 'Received', value: (entry) => timeElement(entry.receivedAt) },
    { label: 'Outcome', value: (entry) => exitOutcomeText(entry, trades, dollars), className: 'outcome' },
  ]
  const count = fillRows(byId('exits-body'), columns, entries, (row, entry) => {
    row.dataset.id = entry.id
    row.dataset.outcome = entry.outcome
  })
  byId('exits-empty').hidden = count > 0
}
