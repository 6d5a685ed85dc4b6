// What the trader reads about an alert record's order and a trade's exit: plain functions, no page access
// (tested in Node: test/page/outcomes.test.ts).

const STATUS_TEXT: Record<string, string> = {
  received: 'Received',
  placing: 'Placing',
  placed: 'Placed',
  refused: 'Refused',
  failed: 'Failed',
  not_placed: 'Not placed',
  test: 'Test',
}

/** What the trader needs to read about a record: the outcome, and why when no order was placed. */
export function outcomeText(record: { status: string; reason: string | null; orderQuantity?: number | null; contract?: string | null; symbol?: string | null }): string {
  const status = STATUS_TEXT[record.status] ?? record.status
  if (record.status === 'placed') {
    const placed = `${status}: ${record.orderQuantity ?? '?'} × ${record.contract ?? record.symbol ?? ''}`.trim()
    // A placed entry an exit cancelled before it filled says so.
    return record.reason ? `${placed} (${record.reason})` : placed
  }
  return record.reason ? `${status}: ${record.reason}` : status
}

/**
 * A trade's outcome: its result once closed (a part closed on its own says so); while open, an exit asked
 * and not yet filled says where it stands (why it waits, or that the broker is flattening), and a note the
 * broker gave (a bracket not resized) is shown too.
 */
export function tradeOutcomeText(trade: { status: string; result: string | null; parentTradeId: string | null; exitRequestedAt: string | null; exitNote: string | null }): string {
  if (trade.status !== 'open') return `${trade.result ?? trade.status}${trade.parentTradeId ? ` (part of trade ${trade.parentTradeId})` : ''}`
  if (trade.exitRequestedAt) return `Exit pending: ${trade.exitNote ?? 'sent to the broker'}`
  return trade.exitNote ? `open: ${trade.exitNote}` : 'open'
}

