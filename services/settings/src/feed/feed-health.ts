import type { BrokerConnection } from './feed-status-reader.ts'

/** What live-trading-status adds to the connector's report: is the feed up, and is it down for too long. */
export interface FeedHealth {
  /** Connected, and the broker heard from within the grace. */
  up: boolean
  /**
   * off: live trading is off (no feed expected); green: up, or down no longer than the grace (a reconnect
   * or a move between connector instances); red: down longer than the grace.
   */
  health: 'off' | 'green' | 'red'
}

/**
 * A feed is down when it is not connected, or when its holder stopped reporting (lastHeardAt not
 * refreshed: a killed connector leaves `connected` behind). It has been down since the broker was last
 * heard from, else since its state was last written; a state nobody wrote (not_started, unknown) counts
 * as down for longer than any grace.
 */
export function feedHealth(connection: BrokerConnection, liveTradingEnabled: boolean, now: Date, graceMs: number): FeedHealth {
  const lastHeard = connection.lastHeardAt ? Date.parse(connection.lastHeardAt) : null
  const heardRecently = lastHeard === null || now.getTime() - lastHeard <= graceMs
  const up = connection.state === 'connected' && heardRecently
  if (!liveTradingEnabled) return { up, health: 'off' }
  if (up) return { up, health: 'green' }
  const since = lastHeard ?? (connection.updatedAt ? Date.parse(connection.updatedAt) : null)
  const downFor = since === null ? Number.POSITIVE_INFINITY : now.getTime() - since
  return { up, health: downFor > graceMs ? 'red' : 'green' }
}
