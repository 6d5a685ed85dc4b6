import { createServer } from 'node:http'
import { PaperMarket, RequestControls, type Interference, type Position, type TaggedOrder } from '@signals/dev-paper-broker/engine'
import { loginsOf, marketAccountsOf, type ProjectXPaperAccount } from './accounts.ts'
import { ProjectXBook } from './book.ts'
import { MarketHub, UserHub } from './hubs.ts'
import { LateLegs } from './late-legs.ts'
import { RateLimiter, type RateLimit } from './rate-limit.ts'
import { handleRest, type RestContext, type SeenRequest } from './rest.ts'
import { SignalRServer } from './signalr.ts'
import { SessionTokens } from './tokens.ts'
import type { ProjectXAccount, UserEvent } from './wire.ts'

/** Batches of user-hub events sent at once, or each `ms` after it was made, in their order (`delayUserHub`). */
class DelayedDelivery {
  #ms = 0
  readonly #queue: { due: number; events: UserEvent[] }[] = []
  #timer: NodeJS.Timeout | undefined

  constructor(private readonly deliver: (events: UserEvent[]) => void) {}

  delay(ms: number): void {
    this.#ms = Math.max(0, ms)
  }

  send(events: UserEvent[]): void {
    if (events.length === 0) return
    if (this.#ms === 0 && this.#queue.length === 0) return this.deliver(events)
    this.#queue.push({ due: Date.now() + this.#ms, events })
    this.#schedule()
  }

  #schedule(): void {
    const head = this.#queue[0]
    if (head === undefined || this.#timer !== undefined) return
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      // Never ahead of an earlier batch: a later one with a shorter delay waits for it.
      while (this.#queue.length > 0 && (this.#queue[0] as { due: number }).due <= Date.now()) this.deliver((this.#queue.shift() as { events: UserEvent[] }).events)
      if (this.#queue.length > 0) this.#schedule()
    }, Math.max(0, head.due - Date.now()))
  }

  stop(): void {
    clearTimeout(this.#timer)
    this.#queue.length = 0
  }
}

export interface ProjectXPaperBrokerOptions {
  host?: string
  /** 0 (default) picks a free port. */
  port?: number
  accounts: readonly ProjectXPaperAccount[]
  /** Cash balance every account starts with (decimal text; default "50000"). */
  startingBalance?: string
  /** Session token lifetime (ProjectX: 24 h). */
  tokenTtlMs?: number
  /** Requests per login and window on every endpoint (ProjectX: 200 per 60 s). */
  rateLimit?: RateLimit
  /** The hubs' server pings (SignalR's default keep-alive: 15 s). */
  keepAliveMs?: number
  /** A quoting market's quote is sent again this often (0: only on a change). Default 15 s. */
  quoteRefreshMs?: number
  /** Serve `/dev/prices`, `/dev/liquidity`, `/dev/partial-fills` (default true). */
  devEndpoints?: boolean
  /** Called for every API request as it arrives, before it is carried out (tests' barriers). */
  onRequest?: (request: SeenRequest) => void
  /** The clock (tests); default the system's. */
  now?: () => Date
}

export interface ProjectXPaperBroker {
  port: number
  /** The API base, as ProjectX's `https://gateway-api-demo.s2f.projectx.com` (paths `/api/...`). */
  apiUrl: string
  /** The user hub, as `https://gateway-rtc-demo.s2f.projectx.com/hubs/user`. */
  userHubUrl: string
  marketHubUrl: string
  /** Every API request seen (endpoint and login name), oldest first. */
  readonly requests: readonly SeenRequest[]
  /** Logins whose user-hub connection follows their accounts (subscribed), as the Tradovate face's `sessions()`. */
  sessions(): string[]
  /** Sets a contract's price (engine name `MNQZ6`); throws with the reason when refused. */
  setPrice(symbol: string, price: string): void
  price(symbol: string): string | null
  /** The order's next fill comes in parts of `lots` contracts; throws with the reason when refused. */
  splitNextFill(orderId: number, lots: number): void
  /** Every order the engine holds (bracket legs waiting for their entry included), with its tag. */
  orders(): TaggedOrder[]
  positions(): Position[]
  balance(accountId: number): string | null
  /**
   * The next `count` requests to `endpoint` (`Order/place`, ProjectX's names) are handled as `interference`
   * says: 429 or 5xx instead of (or, `carriedOut`, after) carrying them out, a refusal in ProjectX's words,
   * carried out late (`late`, after `afterMs` or when released), or cut off (`drop`).
   */
  interfere(endpoint: string, interference: Interference, count?: number): void
  /** Carries out the requests a `late` interference without `afterMs` holds for `endpoint`; returns how many. */
  release(endpoint: string): number
  /** Answers of `endpoint` wait `ms` (the request is carried out at once, its events sent); 0 removes the delay. */
  delay(endpoint: string, ms: number): void
  /**
   * A trader's own market order on an account, as placed by hand on the broker's platform (no tag); its
   * events go to the hub like any other. Throws with the broker's text when refused; returns the order id.
   */
  placeManualOrder(accountId: number, order: { symbol: string; side: 0 | 1; size: number }): number
  /** Flattens an account's position in a contract (engine id) by hand, as its trader would on the platform. */
  liquidate(accountId: number, contractId: number): void
  /**
   * The user hub's events go out `ms` after what made them (a hub slower than the REST answers, as a
   * broker's event bus can be), still in their order; 0 sends them at once again.
   */
  delayUserHub(ms: number): void
  /**
   * ProjectX places a bracket's legs after the entry's fill and tells them after it: the order events of
   * bracket legs (orders with a parent) go out `ms` after the rest of their batch; 0 sends them with it again.
   */
  delayBracketLegs(ms: number): void
  /** Cuts every hub connection without a close message; clients reconnect. */
  dropConnections(): void
  close(): Promise<void>
}

/** Trading an account by hand, as its trader would on the broker's own platform (tests). */
function handTrading(market: PaperMarket, publish: () => void): Pick<ProjectXPaperBroker, 'placeManualOrder' | 'liquidate'> {
  return {
    placeManualOrder(accountId, order) {
      const placed = market.placeOrder(accountId, { symbol: order.symbol, action: order.side === 0 ? 'Buy' : 'Sell', orderQty: order.size, orderType: 'Market', isAutomated: false })
      publish()
      if (placed.orderId === undefined) throw new RangeError(placed.failureText ?? 'order refused')
      return placed.orderId
    },
    liquidate(accountId, contractId) {
      const result = market.liquidate(accountId, contractId)
      publish()
      if (result.failureText) throw new RangeError(result.failureText)
    },
  }
}

/**
 * A development and test simulator of ProjectX's Gateway API: the REST endpoints with ProjectX's JSON and
 * refusals, its rate limit, and the user and market hubs over SignalR, on the paper broker's simulated
 * market engine (the same one the Tradovate face runs on). Never started in production.
 * See docs/decisions/projectx-paper-broker.md.
 */
export async function startProjectXPaperBroker(options: ProjectXPaperBrokerOptions): Promise<ProjectXPaperBroker> {
  const now = options.now ?? (() => new Date())
  const logins = loginsOf(options.accounts)
  const market = new PaperMarket(marketAccountsOf(logins), options.startingBalance ?? '50000', now)
  const accountView = (accountId: number, balance?: number): ProjectXAccount => {
    const account = options.accounts.find((candidate) => candidate.accountId === accountId)
    return { id: accountId, name: account?.accountName ?? String(accountId), balance: balance ?? Number(market.balanceText(accountId) ?? 0), canTrade: account?.canTrade !== false, isVisible: true, simulated: true }
  }
  const book = new ProjectXBook(now, accountView)
  const tokens = new SessionTokens(options.tokenTtlMs ?? 24 * 3_600_000, now)
  const rule = options.rateLimit ?? { limit: 200, windowMs: 60_000 }
  const controls = new RequestControls()
  const limiter = new RateLimiter(rule, () => now().getTime())
  const requests: SeenRequest[] = []
  const seen = (request: SeenRequest) => {
    requests.push(request)
    options.onRequest?.(request)
  }
  const context: RestContext = { market, book, now, accountView, logins, tokens, limiter, controls, publish: () => publish(), devEndpoints: options.devEndpoints ?? true, seen }
  const userHub = new UserHub()
  const marketHub = new MarketHub(market, now, options.quoteRefreshMs ?? 15_000)
  const authorize = (token: string) => {
    const userName = tokens.userOf(token)
    return userName === null ? null : (logins.get(userName) ?? null)
  }
  const signalr = new SignalRServer({ '/hubs/user': userHub.hub(), '/hubs/market': marketHub.hub() }, authorize, options.keepAliveMs ?? 15_000)
  const userEvents = new DelayedDelivery((events: UserEvent[]) => userHub.deliver(events))
  const legEvents = new LateLegs((events) => userEvents.send(events))
  /** After every request and price: the engine's events to the user hub, changed prices to the market hub. */
  const publish = () => {
    userEvents.send(legEvents.keep(book.apply(market.drainEvents())))
    marketHub.flush(market.drainQuoteChanges())
  }
  const server = createServer((request, response) => {
    if (signalr.negotiate(request, response)) return
    void handleRest(context, request, response).then(publish)
  })
  server.on('upgrade', (request, socket, head) => {
    if (!signalr.upgrade(request, socket, head)) socket.destroy()
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const base = `http://${host}:${port}`
  return {
    port,
    apiUrl: base,
    userHubUrl: `${base}/hubs/user`,
    marketHubUrl: `${base}/hubs/market`,
    requests,
    sessions: () => userHub.sessions(),
    setPrice(symbol, price) {
      const error = market.setPrice(symbol, price)
      if (error) throw new RangeError(error)
      publish()
    },
    price: (symbol) => market.price(symbol),
    splitNextFill(orderId, lots) {
      const error = market.splitNextFill(null, orderId, lots)
      if (error) throw new RangeError(error)
    },
    orders: () => market.taggedOrders(),
    positions: () => market.positions(),
    balance: (accountId) => market.balanceText(accountId),
    interfere: (endpoint, interference, count) => controls.interfere(endpoint, interference, count),
    release: (endpoint) => controls.release(endpoint),
    delay: (endpoint, ms) => controls.delay(endpoint, ms),
    ...handTrading(market, publish),
    delayUserHub: (ms) => userEvents.delay(ms),
    delayBracketLegs: (ms) => legEvents.delay(ms),
    dropConnections: () => signalr.drop(),
    async close() {
      userEvents.stop()
      marketHub.stop()
      await signalr.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
