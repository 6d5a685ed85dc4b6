import { findContract, type PaperContract, type PaperMarket } from '@signals/dev-paper-broker/engine'
import { accountOf, type ProjectXLogin } from './accounts.ts'
import { contractOfId, projectXIdOf } from './contracts.ts'
import type { Hub, HubClient } from './signalr.ts'
import type { UserEvent, UserEventTarget } from './wire.ts'

type Client = HubClient<ProjectXLogin>

const KINDS = { Orders: 'GatewayUserOrder', Positions: 'GatewayUserPosition', Trades: 'GatewayUserTrade' } as const satisfies Record<string, UserEventTarget>

/**
 * ProjectX's user hub (`/hubs/user`): `SubscribeAccounts()`, `SubscribeOrders(accountId)`,
 * `SubscribePositions(accountId)`, `SubscribeTrades(accountId)` and their `Unsubscribe…`; events
 * `GatewayUserAccount`, `GatewayUserOrder`, `GatewayUserPosition`, `GatewayUserTrade` with one argument,
 * the record. A login subscribes to its own accounts only.
 */
export class UserHub {
  readonly #subscriptions = new Map<Client, Set<string>>()
  /** The clients of each topic (`<target>:<accountId>`; account events by each account of the login): one look-up per event. */
  readonly #clients = new Map<string, Set<Client>>()

  hub(): Hub<ProjectXLogin> {
    const methods: Record<string, (client: Client, args: unknown[]) => unknown> = {
      SubscribeAccounts: (client) => this.#follow(client, 'GatewayUserAccount', client.session.accounts.map((account) => `GatewayUserAccount:${account.accountId}`)),
      UnsubscribeAccounts: (client) => this.#unfollow(client, 'GatewayUserAccount', client.session.accounts.map((account) => `GatewayUserAccount:${account.accountId}`)),
    }
    for (const [kind, target] of Object.entries(KINDS)) {
      methods[`Subscribe${kind}`] = (client, [accountId]) => {
        const topic = `${target}:${this.#accountId(client, accountId)}`
        this.#follow(client, topic, [topic])
      }
      methods[`Unsubscribe${kind}`] = (client, [accountId]) => {
        const topic = `${target}:${this.#accountId(client, accountId)}`
        this.#unfollow(client, topic, [topic])
      }
    }
    return {
      methods,
      disconnected: (client) => {
        for (const clients of this.#clients.values()) clients.delete(client)
        this.#subscriptions.delete(client)
      },
    }
  }

  #follow(client: Client, topic: string, keys: readonly string[]): void {
    const topics = this.#subscriptions.get(client) ?? new Set<string>()
    this.#subscriptions.set(client, topics.add(topic))
    for (const key of keys) this.#clients.set(key, (this.#clients.get(key) ?? new Set<Client>()).add(client))
  }

  #unfollow(client: Client, topic: string, keys: readonly string[]): void {
    this.#subscriptions.get(client)?.delete(topic)
    for (const key of keys) this.#clients.get(key)?.delete(client)
  }

  #accountId(client: Client, accountId: unknown): number {
    const account = accountOf(client.session, accountId)
    if (!account) throw new Error(`account ${String(accountId)} not found for this login`)
    return account.accountId
  }

  /** Login names with a user-hub connection that has subscribed to its accounts' events (a session following them). */
  sessions(): string[] {
    return [...new Set([...this.#subscriptions.keys()].map((client) => client.session.userName))]
  }

  /** Sends each event to the clients subscribed to it (account events to every subscribed login holding the account), in order. */
  deliver(events: readonly UserEvent[]): void {
    for (const event of events) {
      const clients = this.#clients.get(`${event.target}:${event.accountId}`)
      if (clients) for (const client of clients) client.send(event.target, event.data)
    }
  }
}

/**
 * ProjectX's market hub (`/hubs/market`): `SubscribeContractQuotes(contractId)` sends the contract's quote at
 * once (when it has a price), on every price change, and every `refreshMs` while its market goes on quoting:
 * `GatewayQuote(contractId, quote)`. Trades and depth subscriptions are accepted and send nothing (the
 * paper market has no order book).
 */
export class MarketHub {
  readonly #quotes = new Map<Client, Set<string>>()
  /** Session high and low of each contract's price, by contract name. */
  readonly #range = new Map<string, { open: number; high: number; low: number }>()
  readonly #refresh: NodeJS.Timeout | undefined

  constructor(
    private readonly market: PaperMarket,
    private readonly now: () => Date,
    refreshMs: number,
  ) {
    if (refreshMs > 0) this.#refresh = setInterval(() => this.#refreshLive(), refreshMs)
  }

  hub(): Hub<ProjectXLogin> {
    const quiet = (_client: Client, [contractId]: unknown[]) => void this.#contract(contractId)
    return {
      methods: {
        SubscribeContractQuotes: (client, [contractId]) => {
          const contract = this.#contract(contractId)
          const names = this.#quotes.get(client) ?? new Set<string>()
          this.#quotes.set(client, names.add(contract.name))
          client.afterCompletion(() => this.#send(client, contract))
        },
        UnsubscribeContractQuotes: (client, [contractId]) => void this.#quotes.get(client)?.delete(this.#contract(contractId).name),
        SubscribeContractTrades: quiet,
        UnsubscribeContractTrades: quiet,
        SubscribeContractMarketDepth: quiet,
        UnsubscribeContractMarketDepth: quiet,
      },
      disconnected: (client) => this.#quotes.delete(client),
    }
  }

  #contract(contractId: unknown): PaperContract {
    const contract = contractOfId(contractId, this.now())
    if (!contract) throw new Error(`contract ${JSON.stringify(contractId ?? null)} not found`)
    return contract
  }

  /** Sends the quotes of the contracts whose price changed to their subscribers. */
  flush(changed: readonly string[]): void {
    for (const name of changed) {
      const price = Number(this.market.price(name))
      const range = this.#range.get(name)
      this.#range.set(name, range ? { open: range.open, high: Math.max(range.high, price), low: Math.min(range.low, price) } : { open: price, high: price, low: price })
    }
    if (changed.length === 0) return
    for (const [client, names] of this.#quotes) {
      for (const name of changed) if (names.has(name)) this.#send(client, findContract(name) as PaperContract)
    }
  }

  #send(client: Client, contract: PaperContract): void {
    const quote = this.market.quote(contract)
    if (!quote) return
    const price = Number(this.market.price(contract.name))
    const range = this.#range.get(contract.name) ?? { open: price, high: price, low: price }
    const id = projectXIdOf(contract, this.now())
    client.send('GatewayQuote', id, {
      symbol: `F.US.${id.split('.')[3] as string}`,
      symbolName: `/${contract.spec.root}`,
      lastPrice: price,
      bestBid: price,
      bestAsk: price,
      change: price - range.open,
      changePercent: range.open === 0 ? 0 : ((price - range.open) / range.open) * 100,
      ...range,
      volume: 0,
      lastUpdated: quote.timestamp,
      timestamp: quote.timestamp,
    })
  }

  #refreshLive(): void {
    for (const [client, names] of this.#quotes) {
      for (const name of names) {
        const contract = findContract(name) as PaperContract
        if (this.market.quoting(contract)) this.#send(client, contract)
      }
    }
  }

  /** Contract names each client is subscribed to (tests). */
  subscriptions(): string[][] {
    return [...this.#quotes.values()].map((names) => [...names].sort())
  }

  stop(): void {
    clearInterval(this.#refresh)
  }
}
