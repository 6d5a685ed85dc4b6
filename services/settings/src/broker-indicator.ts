import { statusIndicator, type StatusIndicator } from './status-indicator.ts'
import type { BrokerConnection } from './feed/feed-status-reader.ts'
import { feedHealth, type FeedHealth } from './feed/feed-health.ts'

/**
 * The spec's indicator, and then what the broker connector reported (issue 25, item 4): a feed in `error`
 * (the broker refused the login, or the connection was lost) is amber within FEED_DOWN_GRACE_MS and red
 * after it, and a connected feed the broker has gone silent on is red after the grace: never green while
 * the broker refuses. `reason` says why in the broker's words. A feed with no report (not_started, unknown)
 * leaves the spec's table as it is: the connector has said nothing to go on (decisions/settings.md).
 */
function brokerIndicator(
  flags: { liveTradingEnabled: boolean; autoPlaceOrdersEnabled: boolean; hasCredentials: boolean },
  connection: BrokerConnection,
  health: FeedHealth,
): { indicator: StatusIndicator; reason: string | null } {
  const table = statusIndicator(flags)
  if (table === 'gray') return { indicator: table, reason: null }
  if (table === 'red') return { indicator: table, reason: 'Live trading is on, but no broker credentials are stored.' }
  if (connection.state === 'error') {
    return { indicator: health.health === 'red' ? 'red' : 'yellow', reason: `The broker connection failed: ${connection.detail ?? 'no reason given'}` }
  }
  if (connection.state === 'connected' && !health.up && health.health === 'red') {
    return { indicator: 'red', reason: `The broker has not been heard from since ${connection.lastHeardAt ?? connection.updatedAt}: the feed is down.` }
  }
  if (connection.state === 'connecting') return { indicator: 'yellow', reason: 'Connecting to the broker.' }
  return { indicator: table, reason: table === 'yellow' ? 'Auto-place is off: alerts are recorded but no order is placed.' : null }
}

/**
 * The live-trading status of a trader's broker connection, as `GET /api/live-trading-status` reports it and
 * `GET /api/accounts` reports it for the primary account: the indicator, why, and the connection's health.
 */
export function liveIndicatorOf(
  flags: { liveTradingEnabled: boolean; autoPlaceOrdersEnabled: boolean; hasCredentials: boolean },
  connection: BrokerConnection,
  now: Date,
  graceMs: number,
) {
  const health = feedHealth(connection, flags.liveTradingEnabled, now, graceMs)
  const { indicator, reason } = brokerIndicator(flags, connection, health)
  return { indicator, indicatorReason: reason, brokerConnection: { connected: connection.state === 'connected', ...connection, ...health } }
}
