import { BlockList, isIP } from 'node:net'
import { listOf } from '@signals/config'

/**
 * INGEST_ALLOWED_SOURCES as a matcher of client addresses (single addresses or CIDRs, IPv4 or IPv6;
 * an IPv4-mapped IPv6 address counts as its IPv4 form). Null when unset: every source is allowed.
 */
export function sourceAllowList(setting: string | undefined): ((address: string) => boolean) | null {
  const entries = listOf(setting)
  if (entries.length === 0) return null
  const list = new BlockList()
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/')
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    if (isIP(address) === 0) throw new Error(`INGEST_ALLOWED_SOURCES: ${JSON.stringify(entry)} is not an address or CIDR`)
    if (prefix === undefined) list.addAddress(address, family)
    else list.addSubnet(address, Number(prefix), family)
  }
  return (address) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
    const plain = mapped ?? address
    const family = isIP(plain)
    if (family === 0) return false
    return list.check(plain, family === 6 ? 'ipv6' : 'ipv4')
  }
}

/** TradingView's published webhook sources: every user's alerts come from these four addresses. */
export const TRADINGVIEW_SOURCES: readonly string[] = ['52.89.214.238', '34.212.75.30', '54.218.53.128', '52.32.178.7']

/**
 * The least any TradingView address may send per minute, whatever INGEST_RATE_LIMIT_PER_MINUTE says: a
 * bar close fires every live strategy at once, and TradingView does not resend an alert answered 4xx.
 * Sized for 1,000 live traders x 10 strategies x (entry + result) plus half again, all from one of the
 * four addresses (docs/decisions/ingest.md).
 */
export const TRADINGVIEW_MIN_PER_MINUTE = 30_000

/** An address's own per-minute budget: TradingView's never go below the bar-close burst. */
export function tradingViewBudget(commonLimit: number): (address: string) => number | undefined {
  const tradingView = new Set(TRADINGVIEW_SOURCES.flatMap((address) => [address, `::ffff:${address}`]))
  const budget = Math.max(commonLimit, TRADINGVIEW_MIN_PER_MINUTE)
  return (address) => (tradingView.has(address) ? budget : undefined)
}
