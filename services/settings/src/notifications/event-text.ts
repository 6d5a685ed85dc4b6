import type { NotificationEventKind } from '@signals/contracts'

type Details = Record<string, unknown>

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null)
const either = (...values: unknown[]): string => values.map(text).find((value) => value !== null) ?? '?'

/** Title and text of an event the database recorded (docs/decisions/notifications.md lists them). */
export function describeEvent(kind: NotificationEventKind, details: Details): { title: string; text: string } {
  const instrument = either(details.contract, details.symbol)
  // A refused alert may have no action or symbol (it was refused for lacking them).
  const order = [text(details.action), text(details.symbol)].filter((part) => part !== null).join(' ') || 'an alert'
  switch (kind) {
    case 'order_refused':
      return { title: `Order refused: ${order}`, text: either(details.reason, details.refusalCode) }
    case 'order_failed':
      return { title: `Order failed: ${order}`, text: either(details.reason, 'the broker did not take the order') }
    case 'fill':
      return { title: `Filled: ${either(details.side)} ${either(details.quantity)} ${instrument} at ${either(details.entryPrice)}`, text: `Trade ${either(details.tradeId)} is open.` }
    case 'trade_closed': {
      const why = text(details.closeReason)
      return {
        title: `Trade closed: ${instrument} ${either(details.result, 'closed')}, P&L ${either(details.pnl)}`,
        text: `${either(details.side)} ${either(details.quantity)} ${instrument} from ${either(details.entryPrice)} to ${either(details.exitPrice)}.${why ? ` ${why}` : ''}`,
      }
    }
    case 'daily_loss':
      return { title: 'Daily loss limit reached', text: either(details.reason, details.code) }
    case 'broker_login_failed':
      return { title: 'Broker login failed', text: either(details.detail, 'the broker refused the login') }
    case 'feed_down':
      return { title: 'Broker feed down', text: either(details.detail, 'the connection to the broker was lost') }
    case 'kill_switch':
      return { title: 'Kill switch', text: either(details.reason, 'trading was stopped') }
  }
}
