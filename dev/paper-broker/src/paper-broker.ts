import { createServer, type Server } from 'node:http'
import { WebSocketServer } from 'ws'
import type { CashBalance, CommandResult, Fill, PlaceOsoResult, Position } from '@signals/tradovate-wire'
import { RequestControls, type Interference } from './controls.ts'
import { endpointHandlers } from './endpoints.ts'
import { PaperMarket, type QuotedEntry, type TaggedOrder } from './market.ts'
import { loginsOf, type PaperAccount, type PaperLogin, type SeenRequest } from './paper-account.ts'
import { handleRest, manualOrder } from './rest.ts'
import { QuoteFeed } from './quotes.ts'
import { PaperSockets } from './socket.ts'
import { TokenStore } from './tokens.ts'

export interface PaperBrokerOptions {
  host?: string
  /** 0 (default) picks a free port. */
  port?: number
  /** Trading accounts; entries sharing a login `name` are one login with several accounts (in this order). */
  accounts: readonly PaperAccount[]
  /** Cash balance every account starts with (decimal text; default "50000"). */
  startingBalance?: string
  /**
   * Commission per contract on every fill (decimal text, default "0": none charged), reported as each fill's
   * FillFee (`fillFee/ldeps`) and taken from the account's cash, as a broker charges it.
   */
  commissionPerContract?: string
  /** Server heartbeat interval (Tradovate: 2.5 s). */
  heartbeatMs?: number
  /** Access-token lifetime (Tradovate: 80-90 min); short values drive renewal tests. */
  tokenTtlMs?: number
  /**
   * While a contract's market goes on quoting, its quote is sent again to market-data subscribers this
   * often (an open market's quote keeps coming; Tradovate sends one on every change), so a price set by
   * hand does not turn stale. 0 sends quotes only when the price changes. Default 15 s: well inside the
   * connector's 60 s age limit, and cheap with a thousand subscribers (the benchmarks run that many).
   */
  quoteRefreshMs?: number
  /**
   * Serve the development endpoints (default true): `GET|POST /dev/prices` (the only way to move the market),
   * `POST /dev/orders`, `POST /dev/liquidity`, `POST /dev/partial-fills`
   * and `GET|POST|DELETE /dev/controls` (the request controls below, over HTTP).
   */
  devEndpoints?: boolean
  /** Called for every request as it arrives, before it is carried out (REST login bodies without the password). */
  onRequest?: (request: SeenRequest) => void
}

export interface PaperBroker {
  port: number
  /** REST base URL, as Tradovate's `https://demo.tradovateapi.com/v1`. */
  restUrl: string
  /** WebSocket URL, as Tradovate's `wss://demo.tradovateapi.com/v1/websocket`. */
  wsUrl: string
  /**
   * Market-data WebSocket URL, as Tradovate's `wss://md-demo.tradovateapi.com/v1/websocket`: the same socket
   * URL here, a socket authorized with the `mdAccessToken` being a market-data socket.
   */
  mdUrl: string
  /** Authorized, synchronised real-time sessions, by login name. */
  sessions(): string[]
  /** Access-token requests seen (name and outcome only; never a password). */
  readonly tokenRequests: { name: string; ok: boolean }[]
  /** Every request seen, oldest first. */
  readonly requests: SeenRequest[]
  /** Token renewals carried out. */
  readonly renewals: { name: string }[]
  /** Drops every WebSocket (as a broker restart does); clients are expected to reconnect. */
  dropConnections(): void
  /** Drops the market-data sockets only; the trading sockets stay. */
  dropMarketData(): void
  /**
   * The next `count` requests to `endpoint` are handled as `interference` says: answered instead of carried
   * out (penalty, captcha, 429, 5xx), answered 5xx after being carried out, carried out late, or cut off.
   */
  interfere(endpoint: string, interference: Interference, count?: number): void
  /** Carries out the requests a `late` interference without `afterMs` holds for `endpoint`; returns how many. */
  release(endpoint: string): number
  /** The time of every penalty ticket issued so far has passed, as if waited out; returns how many tickets. */
  expirePenalties(): number
  /** Answers of `endpoint` wait `ms` (the request itself is carried out at once); 0 removes the delay. */
  delay(endpoint: string, ms: number): void
  /**
   * Sets a contract's price (as `POST /dev/prices`); throws with the reason when refused. `quotedAt`: the
   * quote is a past one and the market stops quoting (a closed or stuck market: stale prices in tests).
   * `entries`: the entries its quotes carry from now on (default Bid, Offer and Trade): a side left out
   * keeps the time it was last quoted at the client, as at Tradovate, where any entry may be absent.
   */
  setPrice(symbol: string, price: string, options?: { quotedAt?: Date; entries?: readonly QuotedEntry[] }): void
  price(symbol: string): string | null
  /**
   * Every order, with the `clOrdId` of the command that placed it (null when none was given) for tests'
   * assertions: on the wire an Order has no tag (it is on its `New` command), as at Tradovate.
   */
  orders(): TaggedOrder[]
  /**
   * Places an OSO order on an account as its trader would by hand on the broker's own platform (no socket
   * of ours involved); its events go to the login's sockets like any other.
   */
  placeOso(accountId: number, body: Record<string, unknown>): PlaceOsoResult
  /** Flattens an account's position in a contract by hand (as `order/liquidateposition`). */
  liquidate(accountId: number, contractId: number): CommandResult
  /** Cancels a working order by hand on the broker's platform (as `order/cancelorder`, not automated), whoever listens. */
  cancelByHand(accountId: number, orderId: number): CommandResult
  /**
   * A trader's own market order on the login's (first) account (no tag, not automated), as `POST /dev/orders` places
   * it; throws with the broker's text when refused. Returns the order id.
   */
  placeManualOrder(name: string, order: { symbol: string; action: 'Buy' | 'Sell'; qty: number }): number
  /** Each order of the contract fills at most `lots` per price event (`POST /dev/liquidity`); null: in full. */
  setLiquidity(symbol: string, lots: number | null): void
  /** The order's next fill comes in parts of `lots` contracts, each a fill and an order event (`POST /dev/partial-fills`); throws with the reason when refused. */
  splitNextFill(orderId: number, lots: number): void
  /** Contracts each market-data socket is subscribed to (tests). */
  quoteSubscriptions(): string[][]
  /** Test control: `command` events sent before their order (default), in a later frame, or never. */
  commandEvents(delivery: 'first' | 'late' | 'withheld'): void
  /**
   * Test control: `true` keeps the market's events (orders, fills, positions) from the sockets, queued, while
   * answers and quotes still go; `false` sends what was kept, in order. Holds a fill apart from the client's
   * reaction to it.
   */
  holdEvents(hold: boolean): void
  fills(): Fill[]
  positions(): Position[]
  cashBalance(accountId: number): CashBalance | null
  /** Exact cash balance text of an account. */
  balance(accountId: number): string | null
  close(): Promise<void>
}

/**
 * A development and test simulator of Tradovate's API: logins and token renewal over REST, the real-time
 * socket, and a simulated market behind it (accounts, cash, orders, OSO brackets, fills, positions,
 * liquidation) whose prices are set through `/dev/prices`, and its quotes on the market-data socket. Never
 * started in production. See docs/decisions/paper-broker.md.
 */
/** Trading an account by hand, as its trader would on the broker's own platform (tests and `/dev/orders`). */
function handTrading(market: PaperMarket, logins: Map<string, PaperLogin>, broadcast: () => void): Pick<PaperBroker, 'placeManualOrder' | 'setLiquidity' | 'splitNextFill' | 'placeOso' | 'liquidate' | 'cancelByHand'> {
  const thenBroadcast = <T>(result: T): T => {
    broadcast()
    return result
  }
  return {
    placeManualOrder(name, order) {
      const account = logins.get(name)?.accounts[0]
      if (!account) throw new RangeError(`no paper login ${name}`)
      const result = thenBroadcast(market.placeOrder(account.accountId, manualOrder(account, order)))
      if (result.orderId === undefined) throw new RangeError(result.failureText ?? 'order refused')
      return result.orderId
    },
    setLiquidity(symbol, lots) {
      const error = market.setLiquidity(symbol, lots)
      if (error) throw new RangeError(error)
    },
    splitNextFill(orderId, lots) {
      const error = market.splitNextFill(null, orderId, lots)
      if (error) throw new RangeError(error)
    },
    placeOso: (accountId, body) => thenBroadcast(market.placeOso(accountId, body)),
    liquidate: (accountId, contractId) => thenBroadcast(market.liquidate(accountId, contractId)),
    cancelByHand: (accountId, orderId) => thenBroadcast(market.cancelOrder(accountId, orderId, false)),
  }
}

export async function startPaperBroker(options: PaperBrokerOptions): Promise<PaperBroker> {
  const logins = loginsOf(options.accounts)
  const tokens = new TokenStore(options.tokenTtlMs ?? 80 * 60_000)
  const controls = new RequestControls()
  const market = new PaperMarket(options.accounts, options.startingBalance ?? '50000')
  if (options.commissionPerContract !== undefined) market.chargeCommission(options.commissionPerContract)
  const requests: SeenRequest[] = []
  const tokenRequests: { name: string; ok: boolean }[] = []
  const seen = (request: SeenRequest) => {
    requests.push(request)
    options.onRequest?.(request)
  }
  const restContext = { logins, tokens, controls, market, endpoints: endpointHandlers(market), devEndpoints: options.devEndpoints ?? true, seen, tokenRequests }
  const server: Server = createServer((request, response) => {
    void handleRest(restContext, request, response).then(() => live.broadcast())
  })
  const wss = new WebSocketServer({ server, path: '/v1/websocket' })
  const quotes = new QuoteFeed(market, options.quoteRefreshMs ?? 15_000)
  const live = new PaperSockets(wss, { tokens, controls, market, quotes, heartbeatMs: options.heartbeatMs ?? 2_500, seen })

  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    port,
    restUrl: `http://${host}:${port}/v1`,
    wsUrl: `ws://${host}:${port}/v1/websocket`,
    mdUrl: `ws://${host}:${port}/v1/websocket`,
    sessions: () => live.sessions(),
    tokenRequests,
    requests,
    renewals: tokens.renewals,
    dropConnections() {
      for (const socket of wss.clients) socket.terminate()
    },
    dropMarketData: () => live.dropMarketData(),
    interfere: (endpoint, interference, count) => controls.interfere(endpoint, interference, count),
    release: (endpoint) => controls.release(endpoint),
    expirePenalties: () => controls.expirePenalties(),
    delay: (endpoint, ms) => controls.delay(endpoint, ms),
    setPrice(symbol, price, setOptions) {
      const error = market.setPrice(symbol, price, setOptions?.quotedAt, setOptions?.entries)
      if (error) throw new RangeError(error)
      live.broadcast()
    },
    price: (symbol) => market.price(symbol),
    ...handTrading(market, logins, () => live.broadcast()),
    orders: () => market.taggedOrders(),
    quoteSubscriptions: () => quotes.subscriptions(),
    commandEvents(delivery) {
      live.commandEvents = delivery
    },
    holdEvents(hold) {
      live.eventsHeld = hold
      if (!hold) live.broadcast()
    },
    fills: () => market.fills(),
    positions: () => market.positions(),
    cashBalance: (accountId) => market.cashBalance(accountId),
    balance: (accountId) => market.balanceText(accountId),
    async close() {
      quotes.stop()
      for (const socket of wss.clients) socket.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
