// Pure helpers of the Notifications card (notifications.js), loaded by the page tests in Node.

export const EVENTS: ReadonlyArray<readonly [string, string]> = [
  ['order_refused', 'Order refused'],
  ['order_failed', 'Order failed'],
  ['fill', 'Fill'],
  ['trade_closed', 'Trade closed'],
  ['daily_loss', 'Daily loss reached'],
  ['broker_login_failed', 'Broker login failed'],
  ['feed_down', 'Feed down'],
  ['kill_switch', 'Kill switch'],
]

/** A channel as GET /api/notification-channels lists it (the fields these helpers read). */
export interface Channel {
  kind: string
  name: string
  enabled: boolean
  events: string[]
  settings: Record<string, unknown>
  lastSentAt: string | null
  lastFailedAt: string | null
  lastError: string | null
}

const KIND_LABELS: Record<string, string> = { email: 'E-mail', telegram: 'Telegram', discord: 'Discord', webhook: 'Webhook' }

/** The PUT body that keeps a channel as it is (its secret left out, so the stored one is kept), with `changes`. */
export function bodyOf(channel: Channel, changes: Record<string, unknown>): Record<string, unknown> {
  const settings = Object.fromEntries(Object.entries(channel.settings).filter(([, value]) => value !== null))
  return { kind: channel.kind, name: channel.name, enabled: channel.enabled, events: channel.events, ...settings, ...changes }
}

/** One line about the channel: kind, on or off, the last send and, when it is the latest news, the last failure. */
export function describe(channel: Channel): string {
  const parts = [KIND_LABELS[channel.kind] ?? channel.kind, channel.enabled ? 'on' : 'off']
  if (channel.lastSentAt) parts.push(`last sent ${new Date(channel.lastSentAt).toLocaleString()}`)
  const failedLast = channel.lastFailedAt && (!channel.lastSentAt || new Date(channel.lastFailedAt) > new Date(channel.lastSentAt))
  if (failedLast && channel.lastError) parts.push(`last failure: ${channel.lastError}`)
  return parts.join(' · ')
}
