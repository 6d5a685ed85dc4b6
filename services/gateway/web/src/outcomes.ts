// What the trader reads about an alert record's order and a trade's exit: plain functions, no page access
// (tested in Node: test/page/outcomes.test.ts).
import { intakeOutcomeText } from './broker-view.ts'

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


/** A trade as an exit's outcome reads it. */
interface ClosedByExit {
  id: string
  status: string
  result: string | null
  pnl: string | null
  closeAlertId: string | null
  exitRequestedAt: string | null
}

/**
 * What an exit or result webhook did (the Alerts card, issue 25 item 5): refused or a duplicate as the
 * Webhooks page says it; accepted, the trades it closed (result and pnl) or is closing, from the trades
 * that name it as their close; none when no trade of the trader's was open to close, or not yet.
 */
export function exitOutcomeText(entry: { outcome: string; reason: string | null; alertId: string | null }, trades: readonly ClosedByExit[], money: (amount: string | null) => string): string {
  if (entry.outcome !== 'accepted') return intakeOutcomeText(entry)
  const mine = entry.alertId === null ? [] : trades.filter((trade) => trade.closeAlertId === entry.alertId)
  const closed = mine.filter((trade) => trade.status !== 'open')
  const closing = mine.filter((trade) => trade.status === 'open' && trade.exitRequestedAt !== null)
  const parts: string[] = []
  if (closed.length > 0) parts.push(`Closed trade${closed.length === 1 ? '' : 's'} ${closed.map((trade) => `${trade.id} (${trade.result ?? 'closed'}, ${money(trade.pnl)})`).join(', ')}`)
  if (closing.length > 0) parts.push(`closing trade${closing.length === 1 ? '' : 's'} ${closing.map((trade) => trade.id).join(', ')}: exit sent, waiting for the broker's fill`)
  if (parts.length === 0) return 'Accepted: it closed no trade of yours (none was open to close, or it is still on its way)'
  const text = parts.join('; ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}
