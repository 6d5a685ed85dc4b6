// The status card: the indicator (the spec's colour table, or the broker's words when the broker is why),
// open trades, account, credentials date and the broker connection. Refetched after saves and on the live
// socket's status notices.
import { api } from './api.ts'
import type { ResponseOf } from './api-routes.ts'
import { byId, formatTime } from './dom.ts'

export type LiveStatus = ResponseOf<'GET /api/live-trading-status'>['status']
type Color = 'green' | 'yellow' | 'red' | 'gray'
type Connection = LiveStatus['brokerConnection']

/** The spec's indicator table; the server's own `indicator` is used when it sends one. */
const INDICATORS: Record<Color, [string, string]> = {
  green: ['Fully configured', 'Live trading on, orders placed automatically, broker credentials present.'],
  yellow: ['Partially configured', 'Live trading on, but orders are not placed automatically.'],
  red: ['Missing credentials', 'Live trading on, but no broker credentials are stored.'],
  gray: ['Inactive', 'Live trading is off.'],
}

/** A red or amber indicator the broker is why (credentials stored): its words, not the table's. */
const BROKER_LABELS: Partial<Record<Color, string>> = { red: 'Broker connection failing', yellow: 'Needs attention' }

const isColor = (value: unknown): value is Color => typeof value === 'string' && Object.hasOwn(INDICATORS, value)

function indicatorOf(status: LiveStatus): Color {
  if (isColor(status.indicator)) return status.indicator
  if (!status.liveTradingEnabled) return 'gray'
  if (!status.hasCredentials) return 'red'
  if (!status.autoPlaceOrdersEnabled) return 'yellow'
  return 'green'
}

function connectionText(connection: Connection | undefined): string {
  if (!connection) return '–'
  // Connected but not heard from within the grace: its connector stopped reporting.
  const silent = connection.connected && connection.up === false
  const state = connection.connected ? (silent ? 'connected, broker silent' : 'connected') : String(connection.state ?? 'unknown').replaceAll('_', ' ')
  const text = connection.detail ? `${state} (${connection.detail})` : state
  const heard = connection.lastHeardAt ? ` · broker last heard ${formatTime(connection.lastHeardAt)}` : ''
  return `${connection.health === 'red' ? 'down too long: ' : ''}${text}${heard}`
}

let last: LiveStatus | null = null
const listeners: Array<(status: LiveStatus) => void> = []

/** The status as last read (null before the first read). */
export const currentStatus = (): LiveStatus | null => last

/** Called with every status read (the switches follow it). */
export function onStatus(listener: (status: LiveStatus) => void): void {
  listeners.push(listener)
}

export function renderStatus(status: LiveStatus): void {
  last = status
  const color = indicatorOf(status)
  const connection = status.brokerConnection as Connection | undefined
  const brokerTrouble = connection !== undefined && (connection.state === 'error' || connection.state === 'connecting' || (connection.state === 'connected' && connection.health === 'red'))
  const brokerLabel = BROKER_LABELS[color]
  const [label, detail] = status.hasCredentials && status.indicatorReason && brokerTrouble && brokerLabel ? [brokerLabel, status.indicatorReason] : INDICATORS[color]
  byId('indicator').dataset.color = color
  byId('indicator-label').textContent = label
  byId('indicator-detail').textContent = detail
  byId('status-trades').textContent = String(status.liveTradesCount)
  byId('status-account').textContent = status.accountId ?? '–'
  byId('status-credentials-updated').textContent = formatTime(status.credentialsUpdatedAt)
  byId('status-connection').textContent = connectionText(connection)
  byId('status-connection').dataset.health = connection?.health ?? ''
  for (const listener of listeners) listener(status)
}

export async function refreshStatus(): Promise<LiveStatus> {
  const { status } = await api('GET /api/live-trading-status')
  renderStatus(status)
  return status
}
