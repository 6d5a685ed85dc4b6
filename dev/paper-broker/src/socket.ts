import type { WebSocket, WebSocketServer } from 'ws'
import { CLIENT_HEARTBEAT, ENDPOINTS, OPEN_FRAME, arrayFrame, closeFrame, parseRequest, type WireRequest, type WireResponse } from '@signals/tradovate-wire'
import type { RequestControls } from './controls.ts'
import { endpointHandlers, type Handler } from './endpoints.ts'
import type { PaperMarket } from './market.ts'
import type { PaperLogin, SeenRequest } from './paper-account.ts'
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
  login: PaperLogin | null
  /** What the socket was authorized for: trading (access token) or market data (`mdAccessToken`). */
  kind: TokenKind | null
  synced: boolean
  expiryTimer: NodeJS.Timeout | undefined
}

/**
 * The real-time socket: `o` on open, `h` heartbeats, `authorize` with an access token, `user/syncrequest`,
 * then requests answered `{i, s, d}` and `props` events pushed to every synchronised socket of the login
 * that holds the account (a login with several accounts gets the events of each).
 * A socket is closed (`c[...]` frame) when its login session expires without renewal.
 * A socket authorized with a market-data token is a market-data socket instead (Tradovate's md host): it
 * answers `md/*` requests only and receives `md` quote events (quotes.ts).
 */
export class PaperSockets {
  readonly #connections = new Set<Connection>()
  /** Synchronised trading sockets by account: where an account's events go. */
  readonly #synced = new Map<number, Set<Connection>>()
  readonly #table: Record<string, Handler>

  constructor(wss: WebSocketServer, private readonly context: SocketContext) {
    this.#table = endpointHandlers(context.market)
    wss.on('connection', (socket) => this.#accept(socket))
  }

  /**
   * How `command` events are delivered (a test control; Tradovate promises no order between entities):
   * `first` in the batch as the market queued them (before their order), `late` in a frame after the
   * batch, `withheld` never (a client must fetch `command/deps`).
   */
  commandEvents: 'first' | 'late' | 'withheld' = 'first'

  /**
   * A test control: while true, the market's events (orders, fills, positions) stay queued and are sent, in
   * order, by the first broadcast after it is false again; answers and quotes still go. Holds a fill apart
   * from what a client does on seeing it, as a slow event delivery would.
   */
  eventsHeld = false

  /** Sends the market's queued events, one frame per account, to its synchronised sockets; then the quotes. */
  broadcast(): void {
    this.context.quotes.flush(this.context.market.drainQuoteChanges())
    if (this.eventsHeld) return
    const byAccount = new Map<number, { events: unknown[]; commands: unknown[] }>()
    for (const { accountId, event } of this.context.market.drainEvents()) {
      const batch = byAccount.get(accountId) ?? { events: [], commands: [] }
      const apart = event.entityType === 'command' && this.commandEvents !== 'first'
      if (!apart) batch.events.push({ e: 'props', d: event })
      else if (this.commandEvents === 'late') batch.commands.push({ e: 'props', d: event })
      byAccount.set(accountId, batch)
    }
    // Only the accounts with events, each to the synchronised sockets of its login: an answer is not a walk over every socket.
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
    return [...this.#connections].filter((c) => c.synced && c.login).map((c) => (c.login as PaperLogin).name)
  }

  #accept(socket: WebSocket): void {
    const connection: Connection = { socket, login: null, kind: null, synced: false, expiryTimer: undefined }
    this.#connections.add(connection)
    socket.send(OPEN_FRAME)
    const heartbeat = setInterval(() => socket.send('h'), this.context.heartbeatMs)
    socket.on('close', () => {
      clearInterval(heartbeat)
      clearTimeout(connection.expiryTimer)
      this.#connections.delete(connection)
      for (const { accountId } of connection.login?.accounts ?? []) this.#synced.get(accountId)?.delete(connection)
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

  /**
   * Carries a request out at once and answers it after the endpoint's delay, then sends its events, unless a
   * test control says otherwise: an answer instead of carrying it out (penalty, 429, 5xx), a 5xx after
   * carrying it out, no answer now and the request carried out later (`late`), or the connection cut.
   */
  async #handle(connection: Connection, request: WireRequest): Promise<void> {
    let body: Record<string, unknown> = {}
    if (request.endpoint !== ENDPOINTS.authorize && request.body.trim() !== '') {
      try {
        body = JSON.parse(request.body) as Record<string, unknown>
      } catch {
        return this.#send(connection, { i: request.id, s: 400, d: 'Malformed JSON body' })
      }
    }
    this.context.seen({ transport: 'ws', endpoint: request.endpoint, body, name: connection.login?.name ?? null, ticket: typeof body['p-ticket'] === 'string' })
    const answer = this.context.controls.answerFor(request.endpoint, body['p-ticket'])
    if (answer?.kind === 'late') {
      this.context.controls.hold(request.endpoint, () => this.#carryOutLate(connection, request, body), answer.afterMs)
      return
    }
    if (answer?.kind === 'unanswered') return this.#carryOutUnanswered(connection, request, body, answer.afterMs)
    const carriedOut = answer === null || ('carriedOut' in answer && answer.carriedOut)
    const result = carriedOut ? this.#respond(connection, request, body) : null
    await sleep(this.context.controls.delayOf(request.endpoint))
    if (answer?.kind === 'drop') connection.socket.terminate()
    else if (answer?.kind === 'penalty' || answer?.kind === 'body') this.#send(connection, { i: request.id, s: 200, d: answer.body })
    else if (answer?.kind === 'status') this.#send(connection, { i: request.id, s: answer.status, d: answer.text })
    else if (result) this.#send(connection, { i: request.id, ...result })
    this.broadcast()
  }

  /** A request a `late` control held: carried out now, answered if its connection is still open (the client gave up on it). */
  #carryOutLate(connection: Connection, request: WireRequest, body: Record<string, unknown>): void {
    this.#send(connection, { i: request.id, ...this.#respond(connection, request, body) })
    this.broadcast()
  }

  /** An `unanswered` control: carried out now and its events sent; the answer sent `afterMs` later, or never. */
  #carryOutUnanswered(connection: Connection, request: WireRequest, body: Record<string, unknown>, afterMs: number | null): void {
    const result = this.#respond(connection, request, body)
    this.broadcast()
    if (afterMs !== null) setTimeout(() => this.#send(connection, { i: request.id, ...result }), afterMs)
  }

  #respond(connection: Connection, request: WireRequest, body: Record<string, unknown>): Omit<WireResponse, 'i'> {
    if (request.endpoint === ENDPOINTS.authorize) {
      const token = request.body.trim()
      const authorized = this.context.tokens.authorized(token)
      if (!authorized) return { s: 401, d: 'Access is denied' }
      connection.login = authorized.session.login
      connection.kind = authorized.kind
      this.#watchExpiry(connection, token)
      return { s: 200 }
    }
    if (!connection.login) return { s: 401, d: 'Not authorized' }
    if (connection.kind === 'md') return this.context.quotes.handle(connection, request, body)
    const handler = this.#table[request.endpoint]
    if (!handler) return { s: 404, d: `Unknown endpoint ${request.endpoint}` }
    if (request.endpoint === ENDPOINTS.syncRequest && !connection.synced) {
      connection.synced = true
      // Every account of the login: a login with several accounts gets the events of each.
      for (const { accountId } of connection.login.accounts) this.#synced.set(accountId, (this.#synced.get(accountId) ?? new Set()).add(connection))
    }
    return handler(connection.login, body, request)
  }

  #send(connection: Connection, response: WireResponse): void {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(arrayFrame([response]))
  }
}
