/**
 * The market-data socket: its own host (`wss://md.tradovateapi.com/v1/websocket`, demo
 * `wss://md-demo.tradovateapi.com/v1/websocket`), the same frames as the trading socket (`o`, `h`,
 * `a[...]`, `c[...]`, `endpoint\nid\nquery\nbody`), authorized with the `mdAccessToken` of the access-token
 * answer (`authorize\n0\n\n<mdAccessToken>`). Sources: partner.tradovate.com overview/core-concepts/
 * web-sockets/market-data (market-data.md, market-data-request-reference.md: "Subscribe Quote");
 * tradovate/example-api-js tutorial/WebSockets/EX-08-Realtime-Market-Data (README: the `md` event
 * schema, "any of entries may be absent", "either price or size may be absent") and
 * EX-08a MarketDataSocket.js; cgilly2fast/tradovate-typescript src/websockets/MarketDataSocket.ts (quotes
 * matched to their subscription by `contractId`; unsubscribe with the same `symbol`).
 */

export const MD_ENDPOINTS = {
  /** Body `{symbol}`: the contract's name (`MNQZ6`) or its id. Answer 200, then `md` quote events. */
  subscribeQuote: 'md/subscribeQuote',
  /** Body `{symbol}` as subscribed. */
  unsubscribeQuote: 'md/unsubscribeQuote',
} as const

export interface QuoteSubscription {
  symbol: string | number
}

/** One entry of a quote: either field may be absent. */
export interface QuoteEntry {
  price?: number
  size?: number
}

export type QuoteEntryName =
  | 'Bid'
  | 'Offer'
  | 'Trade'
  | 'TotalTradeVolume'
  | 'LowPrice'
  | 'HighPrice'
  | 'OpeningPrice'
  | 'SettlementPrice'
  | 'OpenInterest'
  | 'EmptyBook'

/** A contract's quote: whichever entries have data (any may be absent). */
export interface Quote {
  /** ISO time of the quote. */
  timestamp: string
  contractId: number
  entries: Partial<Record<QuoteEntryName, QuoteEntry>>
}

/** `{e:"md", d:{quotes:[...]}}`: one or more quotes (other `md` payloads carry `doms`, `charts`, `histograms`). */
export interface QuoteEvent {
  e: 'md'
  d: { quotes: Quote[] }
}

export function isQuoteEvent(event: { e: string; d: unknown }): event is QuoteEvent {
  if (event.e !== 'md' || typeof event.d !== 'object' || event.d === null) return false
  return Array.isArray((event.d as Record<string, unknown>).quotes)
}

/** The quote's price of one entry, when it is a finite number; null otherwise (Tradovate sends JSON numbers). */
export function entryPrice(quote: unknown, name: QuoteEntryName): number | null {
  if (typeof quote !== 'object' || quote === null) return null
  const entries = (quote as Record<string, unknown>).entries
  if (typeof entries !== 'object' || entries === null) return null
  const entry = (entries as Record<string, unknown>)[name]
  if (typeof entry !== 'object' || entry === null) return null
  const price = (entry as Record<string, unknown>).price
  return typeof price === 'number' && Number.isFinite(price) ? price : null
}
