import type { WebSocket, WebSocketServer } from 'ws'
import { CLIENT_HEARTBEAT, ENDPOINTS, OPEN_FRAME, arrayFrame, closeFrame, parseRequest, type SyncResponse, type WireRequest, type WireResponse } from '@signals/tradovate-wire'
import { findContract } from './contracts.ts'
import type { RequestControls } from './controls.ts'
import type { PaperMarket } from './market.ts'
import type { PaperAccount, SeenRequest } from './paper-account.ts'
import type { QuoteFeed } from './quotes.ts'
import type { TokenKind, TokenStore } from './tokens.ts'
import { setTimeout as sleep } from 'node:timers/promises'

export interface SocketContext {
  tokens: TokenStore
  controls: RequestControls
  market: PaperMarket
  quotes: QuoteFeed
  heartbeatMs: number
  seen(request: SeenRequest): void
}

interface Connection {
  socket: WebSocket
  account: PaperAccount | null
  /** What the socket was authorized for: trading (access token) or market data (`mdAccessToken`). */
  kind: TokenKind | null
  synced: boolean
  expiryTimer: NodeJS.Timeout | undefined
}

type Handler = (account: PaperAccount, body: Record<string, unknown>, request: WireRequest) => Omit<WireResponse, 'i'>

const ok = (d: unknown): Omit<WireResponse, 'i'> => ({ s: 200, d })

/** The account a request names must be the session's own. */
const ownAccount = (account: PaperAccount, body: Record<string, unknown>) => body.accountId === account.accountId

/** Order ids of a `command/deps` (`masterid=5`) or `command/ldeps` (`masterids=5,6`) query; none when malformed. */
function orderIds(query: string, key: string): number[] {
  const text = new URLSearchParams(query).get(key) ?? ''
  return text.split(',').map(Number).filter((id) => Number.isSafeInteger(id) && id > 0)
}

function handlers(market: PaperMarket): Record<string, Handler> {
  return {
    [ENDPOINTS.syncRequest]: (account) => ok(syncSnapshot(market, account)),
    [ENDPOINTS.accountList]: (account) => ok([market.accountEntity(account.accountId)]),
    [ENDPOINTS.contractFind]: (_account, _body, request) => {
      const name = new URLSearchParams(request.query).get('name') ?? ''
      const contract = findContract(name)
      return contract ? ok({ id: contract.id, name: contract.name, contractMaturityId: contract.contractMaturityId }) : { s: 404, d: `Contract ${name} not found` }
    },
    [ENDPOINTS.cashBalanceSnapshot]: (account, body) => (ownAccount(account, body) ? ok(market.cashSnapshot(account.accountId)) : ok({ errorText: 'Access is denied' })),
    [ENDPOINTS.orderList]: (account) => ok(market.orders(account.accountId)),
    [ENDPOINTS.placeOSO]: (account, body) =>
      ownAccount(account, body) && body.accountSpec === account.accountName
        ? ok(market.placeOso(account.accountId, body))
        : ok({ failureReason: 'Unauthorized', failureText: 'accountId and accountSpec must name your account' }),
    [ENDPOINTS.liquidatePosition]: (account, body) =>
      ownAccount(account, body) ? ok(market.liquidate(account.accountId, body.contractId)) : ok({ failureReason: 'Unauthorized', failureText: 'accountId must name your account' }),
    [ENDPOINTS.cancelOrder]: (account, body) => ok(market.cancelOrder(account.accountId, body.orderId, body.isAutomated)),
    [ENDPOINTS.commandList]: (account) => ok(market.commands(account.accountId)),
    [ENDPOINTS.commandDeps]: (account, _body, request) => ok(market.commands(account.accountId, orderIds(request.query, 'masterid'))),
    [ENDPOINTS.commandLdeps]: (account, _body, request) => ok(market.commands(account.accountId, orderIds(request.query, 'masterids'))),
  }
}

function syncSnapshot(market: PaperMarket, account: PaperAccount): SyncResponse {
  const id = account.accountId
  const cash = market.cashBalance(id)
  return {
    users: [{ id: account.userId, name: account.name, status: 'Active' }],
    accounts: [market.accountEntity(id)].filter((entity) => entity !== null),
    cashBalances: cash ? [cash] : [],
    orders: market.orders(id),
    orderVersions: market.orderVersions(id),
    commands: market.commands(id),
    fills: market.fills(id),
    positions: market.positions(id),
  }
}

/**
 * The real-time socket: `o` on open, `h` heartbeats, `authorize` with an access token, `user/syncrequest`,
 * then requests answered `{i, s, d}` and `props` events pushed to every synchronised socket of the account.
 * A socket authorized with a market-data token is a market-data socket instead (Tradovate's md host): it
 * answers `md/*` requests only and receives `md` quote events (quotes.ts). A socket is closed (`c[...]`
 * frame) when its login session expires without renewal.
 */
export class PaperSockets {
  readonly #connections = new Set<Connection>()
  /** Synchronised trading sockets by account: where an account's events go. */
  readonly #synced = new Map<number, Set<Connection>>()
  readonly #table: Record<string, Handler>

  constructor(wss: WebSocketServer, private readonly context: SocketContext) {
    this.#table = handlers(context.market)
    wss.on('connection', (socket) => this.#accept(socket))
  }

  /**
   * How `command` events are delivered (a test control; Tradovate promises no order between entities):
   * `first` in the batch as the market queued them (before their order), `late` in a frame after the
   * batch, `withheld` never (a client must fetch `command/deps`).
   */
  commandEvents: 'first' | 'late' | 'withheld' = 'first'

  /** Sends the market's queued events, one frame per account, to its synchronised sockets; then the quotes. */
  broadcast(): void {
    this.context.quotes.flush(this.context.market.drainQuoteChanges())
    const byAccount = new Map<number, { events: unknown[]; commands: unknown[] }>()
    for (const { accountId, event } of this.context.market.drainEvents()) {
      const batch = byAccount.get(accountId) ?? { events: [], commands: [] }
      const apart = event.entityType === 'command' && this.commandEvents !== 'first'
      if (!apart) batch.events.push({ e: 'props', d: event })
      else if (this.commandEvents === 'late') batch.commands.push({ e: 'props', d: event })
      byAccount.set(accountId, batch)
    }
    // Only the accounts with events, each to its own synchronised sockets: an answer is not a walk over every socket.
    for (const [accountId, batch] of byAccount) {
      for (const connection of this.#synced.get(accountId) ?? []) {
        if (connection.socket.readyState !== connection.socket.OPEN) continue
        for (const frame of [batch.events, batch.commands]) if (frame.length) connection.socket.send(`a${JSON.stringify(frame)}`)
      }
    }
  }

  /** Drops the market-data sockets only (a market-data outage; the trading sockets stay). */
  dropMarketData(): void {
    for (const connection of this.#connections) if (connection.kind === 'md') connection.socket.terminate()
  }

  /** Login names of authorized, synchronised sockets. */
  sessions(): string[] {
    return [...this.#connections].filter((c) => c.synced && c.account).map((c) => (c.account as PaperAccount).name)
  }

  #accept(socket: WebSocket): void {
    const connection: Connection = { socket, account: null, kind: null, synced: false, expiryTimer: undefined }
    this.#connections.add(connection)
    socket.send(OPEN_FRAME)
    const heartbeat = setInterval(() => socket.send('h'), this.context.heartbeatMs)
    socket.on('close', () => {
      clearInterval(heartbeat)
      clearTimeout(connection.expiryTimer)
      this.#connections.delete(connection)
      if (connection.account) this.#synced.get(connection.account.accountId)?.delete(connection)
      this.context.quotes.drop(connection)
    })
    socket.on('message', (data) => {
      const frame = String(data)
      if (frame === CLIENT_HEARTBEAT) return
      const request = parseRequest(frame)
      if (!request) return socket.send(closeFrame(1002, 'Malformed frame'))
      void this.#handle(connection, request)
    })
  }

  #watchExpiry(connection: Connection, token: string): void {
    clearTimeout(connection.expiryTimer)
    const session = this.context.tokens.authorized(token)?.session
    if (!session) return
    const check = () => {
      if (session.expiresAt > Date.now()) {
        connection.expiryTimer = setTimeout(check, session.expiresAt - Date.now() + 5)
        return
      }
      connection.socket.send(closeFrame(1000, 'Access token expired'))
      connection.socket.close()
    }
    connection.expiryTimer = setTimeout(check, session.expiresAt - Date.now() + 5)
  }

  /** Carries a request out at once (unless a test interferes), answers after the endpoint's delay, then the events. */
  async #handle(connection: Connection, request: WireRequest): Promise<void> {
    let body: Record<string, unknown> = {}
    if (request.endpoint !== ENDPOINTS.authorize && request.body.trim() !== '') {
      try {
        body = JSON.parse(request.body) as Record<string, unknown>
      } catch {
        return this.#send(connection, { i: request.id, s: 400, d: 'Malformed JSON body' })
      }
    }
    this.context.seen({ transport: 'ws', endpoint: request.endpoint, body, name: connection.account?.name ?? null, ticket: typeof body['p-ticket'] === 'string' })
    const answer = this.context.controls.answerFor(request.endpoint, body['p-ticket'])
    const result = answer ? null : this.#respond(connection, request, body)
    await sleep(this.context.controls.delayOf(request.endpoint))
    if (answer && answer.kind !== 'status') this.#send(connection, { i: request.id, s: 200, d: answer.body })
    else if (answer) this.#send(connection, { i: request.id, s: answer.status, d: answer.text })
    else if (result) this.#send(connection, { i: request.id, ...result })
    this.broadcast()
  }

  #respond(connection: Connection, request: WireRequest, body: Record<string, unknown>): Omit<WireResponse, 'i'> {
    if (request.endpoint === ENDPOINTS.authorize) {
      const token = request.body.trim()
      const authorized = this.context.tokens.authorized(token)
      if (!authorized) return { s: 401, d: 'Access is denied' }
      connection.account = authorized.session.account
      connection.kind = authorized.kind
      this.#watchExpiry(connection, token)
      return { s: 200 }
    }
    if (!connection.account) return { s: 401, d: 'Not authorized' }
    if (connection.kind === 'md') return this.context.quotes.handle(connection, request, body)
    const handler = this.#table[request.endpoint]
    if (!handler) return { s: 404, d: `Unknown endpoint ${request.endpoint}` }
    if (request.endpoint === ENDPOINTS.syncRequest && !connection.synced) {
      connection.synced = true
      const account = connection.account.accountId
      this.#synced.set(account, (this.#synced.get(account) ?? new Set()).add(connection))
    }
    return handler(connection.account, body, request)
  }

  #send(connection: Connection, response: WireResponse): void {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(arrayFrame([response]))
  }
}
