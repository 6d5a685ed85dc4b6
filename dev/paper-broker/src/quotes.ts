import type { WebSocket } from 'ws'
import { MD_ENDPOINTS, type WireRequest, type WireResponse } from '@signals/tradovate-wire'
import { contractById, findContract, type PaperContract } from './contracts.ts'
import type { PaperMarket } from './market.ts'

/** A market-data socket as the quote feed needs it. */
export interface QuoteClient {
  socket: WebSocket
}

/** `{symbol}` of a subscribe or unsubscribe: a contract name (`MNQZ6`) or a contract id. */
function contractOf(body: Record<string, unknown>): PaperContract | null {
  const symbol = body.symbol
  if (typeof symbol === 'number') return contractById(symbol)
  return typeof symbol === 'string' ? findContract(symbol) : null
}

/**
 * The market-data side of the paper broker: `md/subscribeQuote` and `md/unsubscribeQuote` on sockets
 * authorized with a market-data token, and `{e:"md", d:{quotes:[...]}}` events: the contract's quote right
 * after a subscription is answered, on every price change, and every `refreshMs` while the market goes on
 * quoting (an open market's quote keeps coming; 0 turns that off).
 */
export class QuoteFeed {
  readonly #subscriptions = new Map<QuoteClient, Set<string>>()
  /** Quotes owed to one client: its subscription's first quote, sent after the answer. */
  readonly #owed = new Map<QuoteClient, Set<string>>()
  readonly #refresh: NodeJS.Timeout | undefined

  constructor(
    private readonly market: PaperMarket,
    refreshMs: number,
  ) {
    if (refreshMs > 0) this.#refresh = setInterval(() => this.#refreshLive(), refreshMs)
  }

  /** Answers a market-data request (the socket sends the owed quote after the answer, with `flush`). */
  handle(client: QuoteClient, request: WireRequest, body: Record<string, unknown>): Omit<WireResponse, 'i'> {
    if (request.endpoint !== MD_ENDPOINTS.subscribeQuote && request.endpoint !== MD_ENDPOINTS.unsubscribeQuote) {
      return { s: 404, d: `Unknown endpoint ${request.endpoint}` }
    }
    const contract = contractOf(body)
    if (!contract) return { s: 404, d: `Contract ${JSON.stringify(body.symbol ?? null)} not found` }
    const subscribed = this.#subscriptions.get(client) ?? new Set<string>()
    if (request.endpoint === MD_ENDPOINTS.unsubscribeQuote) {
      subscribed.delete(contract.name)
      return { s: 200 }
    }
    subscribed.add(contract.name)
    this.#subscriptions.set(client, subscribed)
    this.#owed.set(client, (this.#owed.get(client) ?? new Set()).add(contract.name))
    return { s: 200 }
  }

  /**
   * Sends the quotes owed after subscriptions, and those of the contracts whose price changed. Called after
   * every request the broker answers: with nothing owed and no price changed it does nothing (a thousand
   * orders must not walk a thousand subscribers each).
   */
  flush(changed: readonly string[]): void {
    if (changed.length > 0) {
      for (const [client, names] of this.#subscriptions) {
        const owed = this.#owed.get(client)
        this.#send(client, [...names].filter((name) => changed.includes(name) || owed?.has(name)))
      }
    } else {
      for (const [client, owed] of this.#owed) this.#send(client, [...owed])
    }
    this.#owed.clear()
  }

  drop(client: QuoteClient): void {
    this.#subscriptions.delete(client)
    this.#owed.delete(client)
  }

  /** Contract names a client is subscribed to (tests). */
  subscriptions(): string[][] {
    return [...this.#subscriptions.values()].map((names) => [...names].sort())
  }

  stop(): void {
    clearInterval(this.#refresh)
  }

  #refreshLive(): void {
    for (const [client, names] of this.#subscriptions) {
      this.#send(client, [...names].filter((name) => {
        const contract = findContract(name)
        return contract !== null && this.market.quoting(contract)
      }))
    }
  }

  #send(client: QuoteClient, names: readonly string[]): void {
    const quotes = names.flatMap((name) => {
      const contract = findContract(name)
      const quote = contract ? this.market.quote(contract) : null
      return quote ? [quote] : []
    })
    if (quotes.length === 0 || client.socket.readyState !== client.socket.OPEN) return
    client.socket.send(`a${JSON.stringify([{ e: 'md', d: { quotes } }])}`)
  }
}
