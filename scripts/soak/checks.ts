import pg from 'pg'

/** What the database and the paper broker hold once the load has drained. */
export interface Outcome {
  entriesAccepted: number
  /** Entry alerts answered 200 with fewer records than live traders. */
  entriesLost: string[]
  /** Entry alerts with more records than live traders. */
  entriesDoubled: string[]
  resultsAccepted: number
  /** Result alerts answered 200 that are not in the intake log. */
  resultsLost: string[]
  recordsByStatus: Record<string, number>
  /** Why records were refused or failed, with counts. */
  reasons: Record<string, number>
  /** Closed trades by result (TP, SL: a bracket leg filled; Session End: a result alert). */
  closedBy: Record<string, number>
  /** Records with an order tag: how many orders the broker saw for it (1 expected, never 2). */
  ordersPerRecord: Map<number, number>
  /** Orders at the broker whose tag no record has. */
  ordersWithoutRecord: number
  /** Records with more than one trade. */
  recordsWithTwoTrades: number
  tradesOpened: number
  tradesClosed: number
  tradesStillOpen: number
}

/** Counts orders at the paper broker by the tag of their entry (`sig-<record>`; legs are `.sl`/`.tp`). */
export class OrderCounter {
  readonly byTag = new Map<string, number>()

  seen(request: { endpoint: string; body: unknown }): void {
    if (request.endpoint !== 'order/placeOSO') return
    const tag = (request.body as { clOrdId?: unknown } | null)?.clOrdId
    if (typeof tag === 'string') this.byTag.set(tag, (this.byTag.get(tag) ?? 0) + 1)
  }
}

/** Trades still open (the soak waits for 0 after its final Exit alert). */
export async function openTrades(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM trades WHERE status = 'open'")
    return rows[0]?.n ?? 0
  } finally {
    await client.end()
  }
}

export async function checkOutcome(databaseUrl: string, accepted: { entries: string[]; results: string[] }, traders: number, orders: OrderCounter): Promise<Outcome> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const perAlert = await client.query<{ alert_id: string; n: number }>('SELECT alert_id, count(*)::int AS n FROM alerts WHERE alert_id = ANY($1) AND user_id IS NOT NULL GROUP BY alert_id', [accepted.entries])
    const records = new Map(perAlert.rows.map((row) => [row.alert_id, row.n]))
    const logged = await client.query<{ alert_id: string }>('SELECT DISTINCT alert_id FROM intake_log WHERE alert_id = ANY($1)', [accepted.results])
    const loggedIds = new Set(logged.rows.map((row) => row.alert_id))
    const statuses = await client.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM alerts WHERE user_id IS NOT NULL GROUP BY status ORDER BY status')
    const reasons = await client.query<{ reason: string; n: number }>("SELECT coalesce(reason, status) AS reason, count(*)::int AS n FROM alerts WHERE status IN ('refused', 'failed') GROUP BY 1 ORDER BY 2 DESC LIMIT 5")
    const closedBy = await client.query<{ result: string; n: number }>("SELECT coalesce(result, '?') AS result, count(*)::int AS n FROM trades WHERE status = 'closed' GROUP BY 1 ORDER BY 1")
    const tagged = await client.query<{ id: number; order_tag: string }>('SELECT id, order_tag FROM alerts WHERE order_tag IS NOT NULL')
    const tags = new Set(tagged.rows.map((row) => row.order_tag))
    const trades = await client.query<{ opened: number; closed: number; open: number; doubled: number }>(`SELECT count(*)::int AS opened,
        count(*) FILTER (WHERE status = 'closed')::int AS closed, count(*) FILTER (WHERE status = 'open')::int AS open,
        (SELECT count(*)::int FROM (SELECT alert_record_id FROM trades WHERE alert_record_id IS NOT NULL GROUP BY 1 HAVING count(*) > 1) d) AS doubled
      FROM trades`)
    const tradeRow = trades.rows[0] ?? { opened: 0, closed: 0, open: 0, doubled: 0 }
    return {
      entriesAccepted: accepted.entries.length,
      entriesLost: accepted.entries.filter((id) => (records.get(id) ?? 0) < traders),
      entriesDoubled: accepted.entries.filter((id) => (records.get(id) ?? 0) > traders),
      resultsAccepted: accepted.results.length,
      resultsLost: accepted.results.filter((id) => !loggedIds.has(id)),
      recordsByStatus: Object.fromEntries(statuses.rows.map((row) => [row.status, row.n])),
      reasons: Object.fromEntries(reasons.rows.map((row) => [row.reason, row.n])),
      closedBy: Object.fromEntries(closedBy.rows.map((row) => [row.result, row.n])),
      ordersPerRecord: new Map(tagged.rows.map((row) => [row.id, orders.byTag.get(row.order_tag) ?? 0])),
      ordersWithoutRecord: [...orders.byTag.keys()].filter((tag) => !tags.has(tag)).length,
      recordsWithTwoTrades: tradeRow.doubled,
      tradesOpened: tradeRow.opened,
      tradesClosed: tradeRow.closed,
      tradesStillOpen: tradeRow.open,
    }
  } finally {
    await client.end()
  }
}
