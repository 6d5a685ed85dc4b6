import { ENDPOINTS, MD_ENDPOINTS, entryPrice, isQuoteEvent, type Quote } from '@signals/tradovate-wire'
import { decimalText } from '../../../shared/decimal-text.ts'
import { BrokerError, type BrokerContract, type MarketPrice } from '../broker-adapter.ts'
import { sendHonouringWaits, type RetryPolicy } from './retry-policy.ts'
import { classifyAnswer } from './socket-answers.ts'
import { TradovateSocket } from './socket.ts'
import { isObject } from './wire-values.ts'

export interface MarketDataOptions {
  url: string
  /** The session's current market-data token (`mdAccessToken`, renewed with the access token). */
  token(): string
  policy: RetryPolicy
  timeoutMs: number
  heartbeatMs: number
  silenceMs: number
  /** How long a new subscription waits for its first quote before answering that there is none yet. */
  firstQuoteWaitMs: number
  /** After the socket could not be opened, how long answers say so before it is tried again. */
  reopenAfterMs: number
}

/** One side of a contract's quote: its latest price, and when the quote that carried it was made. */
interface Side {
  price: string
  at: Date
}

/**
 * What the quotes told of one contract, each side with its own time: a quote may carry only some of the
 * entries (the others unchanged), so one side can be old while another ticks. The freshness gates read
 * the time of the side the price comes from.
 */
interface Held {
  bid: Side | null
  offer: Side | null
  last: Side | null
}

const none = (reason: string): MarketPrice => ({ kind: 'none', reason })

/**
 * One session's market data (Tradovate's md socket): opened on the first price asked for, authorized with
 * the market-data token, one `md/subscribeQuote` per contract, and the quotes the broker pushes kept by
 * contract id. A lost socket forgets its quotes (nothing confirms them any more); the next question opens
 * it again. The trading session does not depend on it: without market data, prices are `none`.
 */
export class MarketData {
  readonly #quotes = new Map<number, Held>()
  readonly #subscribed = new Map<number, Promise<string | null>>()
  readonly #waiting = new Map<number, Set<() => void>>()
  #socket: Promise<TradovateSocket> | null = null
  #down: { reason: string; until: number } | null = null
  #closed = false

  constructor(private readonly options: MarketDataOptions) {}

  async price(contract: BrokerContract, action: 'Buy' | 'Sell'): Promise<MarketPrice> {
    if (this.#closed) return none('the broker session is closed')
    if (!this.#quotes.has(contract.id)) {
      const problem = await this.#subscribe(contract)
      if (problem !== null) return none(problem)
      await this.#firstQuote(contract.id)
    }
    const held = this.#quotes.get(contract.id)
    if (!held) return none(`the broker has sent no quote for ${contract.name} yet`)
    const side = action === 'Buy' ? held.offer : held.bid
    if (side !== null) return { kind: 'price', price: side.price, source: action === 'Buy' ? 'offer' : 'bid', at: side.at }
    if (held.last !== null) return { kind: 'price', price: held.last.price, source: 'last', at: held.last.at }
    return none(`the broker's quote for ${contract.name} has no ${action === 'Buy' ? 'offer' : 'bid'} and no last trade`)
  }

  close(): void {
    this.#closed = true
    void this.#socket?.then((socket) => socket.close(), () => undefined)
    this.#forget()
  }

  /** Subscribes once per contract and socket; null when subscribed, else why not. */
  #subscribe(contract: BrokerContract): Promise<string | null> {
    let subscribed = this.#subscribed.get(contract.id)
    if (!subscribed) {
      subscribed = this.#open()
        .then(async (socket) => {
          const call = (body: string) => sendHonouringWaits(this.options.policy, MD_ENDPOINTS.subscribeQuote, async () => classifyAnswer(MD_ENDPOINTS.subscribeQuote, await socket.request(MD_ENDPOINTS.subscribeQuote, body), this.options.policy))
          await call(JSON.stringify({ symbol: contract.name }))
          return null
        })
        .catch((error: unknown) => {
          this.#subscribed.delete(contract.id)
          return `market data: ${error instanceof BrokerError ? error.message : 'the quote subscription failed'}`
        })
      this.#subscribed.set(contract.id, subscribed)
    }
    return subscribed
  }

  /** Waits for the contract's first quote, at most `firstQuoteWaitMs`. */
  #firstQuote(contractId: number): Promise<void> {
    if (this.#quotes.has(contractId)) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const waiters = this.#waiting.get(contractId) ?? new Set()
      const done = () => {
        clearTimeout(timer)
        waiters.delete(done)
        resolve()
      }
      const timer = setTimeout(done, this.options.firstQuoteWaitMs)
      waiters.add(done)
      this.#waiting.set(contractId, waiters)
    })
  }

  /** The socket, opened and authorized with the market-data token (once; again after a loss). */
  #open(): Promise<TradovateSocket> {
    if (this.#down && this.#down.until > Date.now()) return Promise.reject(new BrokerError('unavailable', this.#down.reason))
    this.#socket ??= this.#connect().catch((error: unknown) => {
      this.#socket = null
      const reason = error instanceof BrokerError ? error.message : 'the market-data connection failed'
      this.#down = { reason, until: Date.now() + this.options.reopenAfterMs }
      throw new BrokerError('unavailable', reason)
    })
    return this.#socket
  }

  async #connect(): Promise<TradovateSocket> {
    const { url, timeoutMs, heartbeatMs, silenceMs, policy } = this.options
    const socket = await TradovateSocket.open(url, {
      timeoutMs,
      heartbeatMs,
      silenceMs,
      onEvent: (event) => {
        if (isQuoteEvent(event)) for (const quote of event.d.quotes) this.#receive(quote)
      },
      onLost: () => {
        this.#socket = null
        this.#forget()
      },
    })
    try {
      const token = this.options.token()
      await sendHonouringWaits(policy, 'market-data authorize', async () => classifyAnswer(ENDPOINTS.authorize, await socket.request(ENDPOINTS.authorize, token), policy))
    } catch (error) {
      socket.close()
      throw error instanceof BrokerError && error.kind === 'rejected' ? new BrokerError('rejected', 'the broker refused the market-data login') : error
    }
    if (this.#closed) socket.close()
    return socket
  }

  #receive(quote: Quote): void {
    if (!isObject(quote) || typeof quote.contractId !== 'number') return
    const arrived = new Date()
    const stamped = typeof quote.timestamp === 'string' ? new Date(quote.timestamp) : arrived
    const at = Number.isNaN(stamped.getTime()) || stamped > arrived ? arrived : stamped
    const earlier = this.#quotes.get(quote.contractId)
    // "Any of entries may be absent" (Tradovate): a side this quote lacks keeps its earlier price with its
    // earlier time, so it turns stale on its own instead of looking as fresh as the side that ticked.
    const side = (name: 'Bid' | 'Offer' | 'Trade', before: Side | null | undefined): Side | null => {
      const value = entryPrice(quote, name)
      return value === null ? (before ?? null) : { price: decimalText(value), at }
    }
    this.#quotes.set(quote.contractId, { bid: side('Bid', earlier?.bid), offer: side('Offer', earlier?.offer), last: side('Trade', earlier?.last) })
    for (const done of this.#waiting.get(quote.contractId) ?? []) done()
  }

  /** Quotes and subscriptions die with their socket. */
  #forget(): void {
    this.#quotes.clear()
    this.#subscribed.clear()
    for (const waiters of this.#waiting.values()) for (const done of waiters) done()
  }
}
