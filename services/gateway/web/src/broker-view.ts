// What the Positions page says about the broker session's state and each step of an alert: plain functions,
// no page access (tested in Node: test/page/broker-page.test.ts).

export type ViewState = 'live' | 'stale' | 'no_session' | 'unavailable'

/** The session's state in words; `detail` is the connector's reason when it has one. */
export function sessionStateText(state: ViewState, detail: string | null, account: string | null): string {
  switch (state) {
    case 'live':
      return `Read from your broker session just now${account ? ` (account ${account})` : ''}.`
    case 'stale':
      return `Read from your broker session, but ${detail ?? 'the broker has been silent: what it said last may be out of date'}.`
    case 'no_session':
      // The connector's detail here says the same in other words: not repeated.
      return 'Your broker session is not open, so the broker cannot be asked now: live trading is off or the broker connection is down. Positions and orders at the broker are not known.'
    case 'unavailable':
      return `The broker could not be asked now${detail ? `: ${detail}` : ''}. Try again in a moment.`
  }
}

/** The order history's line on commissions: the listed fills' total, or that the broker reported none. */
export function commissionsSentence(session: { commissions: string | null; fills: readonly unknown[] } | null, money: (amount: string) => string): string {
  if (session === null) return ''
  if (session.fills.length === 0) return ''
  if (session.commissions === null) return 'Commissions: the broker reported no fee for these fills, so they are not known here (not $0.00).'
  return `Commissions and fees of these fills: ${money(session.commissions)}, as the broker charged them.`
}

/** One trade's commission: its share of its fills' fees, or why it is not known. */
export function tradeCommissionText(cost: { commission: string | null }, money: (amount: string) => string): string {
  return cost.commission === null ? 'not known: a fill of it is from an earlier day or has no fee reported' : money(cost.commission)
}

const STEP_TEXT: Record<string, string> = {
  received: 'Received',
  decided: 'Decided',
  sent: 'Sent to the broker',
  accepted: 'Accepted by the broker',
  filled: 'Filled',
  exit_requested: 'Exit sent',
  exited: 'Exited',
}

export const stepText = (step: string): string => STEP_TEXT[step] ?? step

/** Who holds a position the broker reports: our trades, the trader's own orders, or both. */
export function placedByText(position: { ours: boolean; quantity: number; side: 'LONG' | 'SHORT'; ourNetQuantity: number; tradeIds: string[] }): string {
  if (!position.ours) return 'You, outside Signals'
  const net = (position.side === 'LONG' ? 1 : -1) * position.quantity
  const trades = `trade${position.tradeIds.length === 1 ? '' : 's'} ${position.tradeIds.join(', ')}`
  if (net === position.ourNetQuantity) return `Signals (${trades})`
  return `Signals holds ${position.ourNetQuantity > 0 ? '+' : ''}${position.ourNetQuantity} (${trades}); the rest is yours`
}

/** What the position's working stops at the broker cover: all of it, or what the trader is to know. */
export function stopsText(position: { quantity: number; stopQuantity: number; stopNote: string | null }): string {
  if (position.stopNote !== null) return `Check: ${position.stopNote}`
  return `${position.stopQuantity} of ${position.quantity} covered`
}

// Ingest routes exits (an exit word, a flat position) and results (TP, SL) alike: both close trades.
const KIND_TEXT: Record<string, string> = { entry: 'Entry', result: 'Exit or result', test: 'Test' }
const REFUSED_TEXT: Record<string, string> = {
  invalid: 'Refused',
  missing_user_id: 'Refused',
  unauthorized: 'Refused (webhook secret)',
  forbidden: 'Refused (sender address)',
  too_large: 'Refused (too large)',
  too_old: 'Refused (too old)',
  rate_limited: 'Refused (too many at once)',
  unavailable: 'Not taken: the platform could not take it then',
}

export const intakeKindText = (kind: string | null): string => (kind === null ? '–' : (KIND_TEXT[kind] ?? kind))

/** A webhook's outcome as the trader reads it: accepted, a duplicate, or refused and why. */
export function intakeOutcomeText(entry: { outcome: string; reason: string | null }): string {
  if (entry.outcome === 'accepted') return 'Accepted'
  if (entry.outcome === 'duplicate') return 'Duplicate: this alert was already received, not acted on again'
  const label = REFUSED_TEXT[entry.outcome] ?? `Refused (${entry.outcome.replace(/_/g, ' ')})`
  return entry.reason ? `${label}: ${entry.reason}` : label
}

/** Whether an outcome is a refusal (the page's "Refused" filter). */
export const isRefused = (outcome: string): boolean => outcome !== 'accepted' && outcome !== 'duplicate'
