import { statusIndicator, type StatusIndicator } from './status-indicator.ts'
import type { BrokerConnection } from './feed/feed-status-reader.ts'
import type { FeedHealth } from './feed/feed-health.ts'

/**
 * The spec's indicator, and then what the broker connector reported (issue 25, item 4): a feed in `error`
 * (the broker refused the login, or the connection was lost) is amber within FEED_DOWN_GRACE_MS and red
 * after it, and a connected feed the broker has gone silent on is red after the grace: never green while
 * the broker refuses. `reason` says why in the broker's words. A feed with no report (not_started, unknown)
 * leaves the spec's table as it is: the connector has said nothing to go on (decisions/settings.md).
 */
export function brokerIndicator(
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
