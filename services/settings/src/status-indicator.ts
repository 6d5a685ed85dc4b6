export type StatusIndicator = 'green' | 'yellow' | 'red' | 'gray'

/**
 * The spec's table. Its rows overlap when live trading is on with auto-place off AND no credentials:
 * red wins, because without credentials no connection can start at all, while auto-place off still
 * leaves a working feed (decisions/settings.md).
 */
export function statusIndicator(state: { liveTradingEnabled: boolean; autoPlaceOrdersEnabled: boolean; hasCredentials: boolean }): StatusIndicator {
  if (!state.liveTradingEnabled) return 'gray'
  if (!state.hasCredentials) return 'red'
  if (!state.autoPlaceOrdersEnabled) return 'yellow'
  return 'green'
}
