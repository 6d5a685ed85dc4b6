import type { HubConnection } from '@microsoft/signalr'
import { decimalText } from '../../../shared/decimal-text.ts'
import type { BrokerContract, MarketPrice } from '../broker-adapter.ts'
import { contractIdOf } from './contract-ids.ts'
import { openHub } from './hub-connection.ts'
import { isFields, num } from './mapping.ts'

interface Quote {
  bid: number | null
  ask: number | null
  last: number | null
  at: Date
}

const none = (reason: string): MarketPrice => ({ kind: 'none', reason })

/**
 * The session's quotes from ProjectX's market hub (`SubscribeContractQuotes` → `GatewayQuote`): opened on
 * the first price asked for, each contract subscribed on first use. Never throws: a price it cannot give
 * is `none` with the reason.
 */
export class MarketQuotes {
  readonly #quotes = new Map<string, Quote>()
  readonly #subscribed = new Set<string>()
  readonly #waiters = new Map<string, (() => void)[]>()
  #hub: Promise<HubConnection> | null = null
  #closed = false

  constructor(private readonly options: { url: string; token: () => string; timeoutMs: number; silenceMs: number; firstQuoteWaitMs: number }) {}

  async price(contract: BrokerContract, action: 'Buy' | 'Sell'): Promise<MarketPrice> {
    if (this.#closed) return none('the broker session is closed')
    const contractId = contractIdOf(contract.id)
    if (contractId === null) return none(`${contract.name} has no ProjectX contract id`)
    try {
      await this.#subscribe(contractId)
    } catch (error) {
      return none(`ProjectX market data is unavailable (${(error as Error).message})`)
    }
    if (!this.#quotes.has(contractId)) await this.#firstQuote(contractId)
    const quote = this.#quotes.get(contractId)
    if (!quote) return none(`the broker has sent no quote for ${contract.name} yet`)
    const side = action === 'Buy' ? quote.ask : quote.bid
    if (side !== null) return { kind: 'price', price: decimalText(side), source: action === 'Buy' ? 'offer' : 'bid', at: quote.at }
    if (quote.last !== null) return { kind: 'price', price: decimalText(quote.last), source: 'last', at: quote.at }
    return none(`the broker's quote for ${contract.name} has no price`)
  }

  async #subscribe(contractId: string): Promise<void> {
    this.#hub ??= this.#open()
    const hub = await this.#hub
    if (this.#subscribed.has(contractId)) return
    this.#subscribed.add(contractId)
    try {
      await hub.invoke('SubscribeContractQuotes', contractId)
    } catch (error) {
      this.#subscribed.delete(contractId)
      throw error
    }
  }

  async #open(): Promise<HubConnection> {
    try {
      const hub = await openHub({
        url: this.options.url,
        token: this.options.token,
        timeoutMs: this.options.timeoutMs,
        silenceMs: this.options.silenceMs,
        // Quotes only size orders: a lost market hub is opened again on the next price asked for.
        onLost: () => {
          this.#hub = null
          this.#subscribed.clear()
          this.#quotes.clear()
        },
      })
      hub.on('GatewayQuote', (contractId: unknown, quote: unknown) => this.#receive(contractId, quote))
      if (this.#closed) void hub.stop()
      return hub
    } catch (error) {
      this.#hub = null
      throw error
    }
  }

  #receive(contractId: unknown, quote: unknown): void {
    if (typeof contractId !== 'string' || !isFields(quote)) return
    const before = this.#quotes.get(contractId)
    const stamp = typeof quote.timestamp === 'string' && !Number.isNaN(Date.parse(quote.timestamp)) ? new Date(Math.min(Date.parse(quote.timestamp), Date.now())) : new Date()
    // ProjectX sends only the fields that changed: the others keep their last value.
    this.#quotes.set(contractId, { bid: num(quote.bestBid) ?? before?.bid ?? null, ask: num(quote.bestAsk) ?? before?.ask ?? null, last: num(quote.lastPrice) ?? before?.last ?? null, at: stamp })
    for (const wake of this.#waiters.get(contractId) ?? []) wake()
    this.#waiters.delete(contractId)
  }

  #firstQuote(contractId: string): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.options.firstQuoteWaitMs)
      const waiters = this.#waiters.get(contractId) ?? []
      waiters.push(() => (clearTimeout(timer), resolve()))
      this.#waiters.set(contractId, waiters)
    })
  }

  close(): void {
    this.#closed = true
    void this.#hub?.then((hub) => hub.stop()).catch(() => undefined)
  }
}
