import { ENDPOINTS, isPropsEvent, type AccessTokenResponse } from '@signals/tradovate-wire'
import { BrokerError, isDone, type BrokerAdapter, type BrokerEndpoints, type BrokerSession, type BrokerSnapshot, type SessionOptions } from '../broker-adapter.ts'
import { AccountScope } from './account-scope.ts'
import { toSnapshot } from './mapping.ts'
import { MarketData } from './market-data.ts'
import { OrderTags } from './order-tags.ts'
import { renewAccessToken, requestAccessToken, type TradovateLogin } from './rest.ts'
import { DEFAULT_RETRY_POLICY, sendHonouringWaits, type PenaltyMemo, type RetryPolicy } from './retry-policy.ts'
import { savedAccount } from './saved-account.ts'
import { TradovateSession, commandsOf, orderOf } from './session.ts'
import { classifyAnswer } from './socket-answers.ts'
import { TradovateSocket } from './socket.ts'
import { TaggedEvents } from './tagged-events.ts'
import { TokenRenewal } from './token-renewal.ts'
import { int, isObject } from './wire-values.ts'

export interface TradovateAdapterOptions {
  retry?: Partial<RetryPolicy>
  /** Client heartbeat interval (Tradovate: 2.5 s). */
  heartbeatMs?: number
  /** Session lost after this long without a frame. */
  silenceMs?: number
  /** Renew this long before `expirationTime` (at most a quarter of the token's remaining life). Default 5 min. */
  renewBeforeMs?: number
  /** How long a new quote subscription waits for its first quote. Default 2 s. */
  firstQuoteWaitMs?: number
  /** After the market-data socket could not be opened, how long before it is tried again. Default 5 s. */
  marketDataReopenMs?: number
}

/** Tradovate over REST (login, token renewal) and the real-time socket (sync, events, every other request). */
export class TradovateAdapter implements BrokerAdapter<'paper' | 'tradovate'> {
  readonly #policy: RetryPolicy
  /** Penalty tickets of logins that gave up waiting, per broker and user, presented by the next login. */
  readonly #loginTickets = new Map<string, PenaltyMemo>()

  constructor(private readonly options: TradovateAdapterOptions = {}) {
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry }
  }

  async openSession(endpoints: BrokerEndpoints, login: TradovateLogin, options: SessionOptions): Promise<BrokerSession> {
    const timeoutMs = options.timeoutMs ?? 10_000
    const token = await requestAccessToken(endpoints.restUrl, login, this.#policy, timeoutMs, this.#loginMemo(endpoints, login))
    let established = false
    let lostReported = false
    const lose = (reason: string) => {
      renewal.stop()
      marketData.close()
      if (!established || lostReported) return
      lostReported = true
      options.onLost(reason)
    }
    const renewal = new TokenRenewal((current) => renewAccessToken(endpoints.restUrl, current, this.#policy, timeoutMs), this.options.renewBeforeMs ?? 5 * 60_000, (reason) => {
      socket.close()
      lose(reason)
    })
    const marketData = this.#marketData(endpoints, () => renewal.current ?? token, timeoutMs)
    const tags = new OrderTags()
    const fetchCommands = (orderIds: readonly number[]) => commandsOf(socket, this.#policy)(orderIds)
    const fetchOrder = (orderId: number) => orderOf(socket, this.#policy)(orderId)
    const events = new TaggedEvents(tags, fetchCommands, fetchOrder, options.onEvent, (reason) => {
      // A socket already ended was closed by us (no onLost) or its loss is reported already.
      if (socket.ended) return
      socket.close()
      lose(reason)
    })
    const socket = await TradovateSocket.open(endpoints.wsUrl, {
      timeoutMs,
      heartbeatMs: this.options.heartbeatMs ?? 2_500,
      silenceMs: this.options.silenceMs ?? 10_000,
      onEvent: (event) => {
        if (isPropsEvent(event)) events.receive(event.d)
      },
      onLost: lose,
    })
    let synced: { snapshot: BrokerSnapshot; scope: AccountScope }
    try {
      synced = await this.#synchronise(socket, token, tags, login.account)
    } catch (error) {
      socket.close()
      throw error
    }
    established = true
    renewal.start(token)
    events.start(synced.scope)
    return new TradovateSession(synced.snapshot, socket, this.#policy, marketData, () => {
      renewal.stop()
      marketData.close()
      socket.close()
    })
  }

  /** The session's market data: its own socket, opened on the first price asked for (market-data.ts). */
  #marketData(endpoints: BrokerEndpoints, token: () => AccessTokenResponse, timeoutMs: number): MarketData {
    return new MarketData({
      url: endpoints.mdUrl,
      token: () => token().mdAccessToken ?? token().accessToken,
      policy: this.#policy,
      timeoutMs,
      heartbeatMs: this.options.heartbeatMs ?? 2_500,
      silenceMs: this.options.silenceMs ?? 10_000,
      firstQuoteWaitMs: this.options.firstQuoteWaitMs ?? 2_000,
      reopenAfterMs: this.options.marketDataReopenMs ?? 5_000,
    })
  }

  #loginMemo(endpoints: BrokerEndpoints, login: TradovateLogin): PenaltyMemo {
    const key = `${endpoints.restUrl}\n${login.username}`
    let memo = this.#loginTickets.get(key)
    if (!memo) {
      // Bounded: one entry per broker login this process has used.
      memo = { ticket: null }
      this.#loginTickets.set(key, memo)
    }
    return memo
  }

  /**
   * `authorize` with the access token, then `user/syncrequest` for the user, whose answer covers every
   * account of the login: the saved account is chosen from it (or the session refused), and the snapshot
   * keeps that account's state only, its orders tagged from the `commands` (and `command/ldeps` for any
   * order listed without one).
   */
  async #synchronise(socket: TradovateSocket, token: AccessTokenResponse, tags: OrderTags, wanted: string): Promise<{ snapshot: BrokerSnapshot; scope: AccountScope }> {
    const call = (endpoint: string, body: string) =>
      sendHonouringWaits(this.#policy, endpoint, async () => classifyAnswer(endpoint, await socket.request(endpoint, body), this.#policy))
    try {
      await call(ENDPOINTS.authorize, token.accessToken)
    } catch (error) {
      // A token refused moments after it was issued: a broker-side hiccup, worth another try later.
      if (error instanceof BrokerError && error.kind === 'rejected') throw new BrokerError('unavailable', 'the broker did not authorize the session with a fresh token')
      throw error
    }
    const sync = await call(ENDPOINTS.syncRequest, JSON.stringify({ users: [token.userId] }))
    const answer = isObject(sync) ? sync : {}
    const account = savedAccount(answer.accounts, wanted)
    const scope = new AccountScope(account.id)
    const list = (items: unknown) => (Array.isArray(items) ? (items as unknown[]) : [])
    const own = list(answer.orders).filter((order) => scope.noteOrder(order) === true)
    tags.learnAll(answer.commands)
    await tags.complete(own, commandsOf(socket, this.#policy))
    // A fill of an order the snapshot does not list (placed on an earlier day): its order names the account.
    const unplaced = new Set(list(answer.fills).map((fill) => (isObject(fill) ? int(fill.orderId) : null)).filter((id): id is number => id !== null && scope.ownsOrder(id) === undefined))
    for (const orderId of unplaced) await scope.resolve(orderId, orderOf(socket, this.#policy))
    const snapshot = toSnapshot(answer, tags, account, scope)
    // The snapshot holds the day's orders with their tags; the session goes on with its working ones only.
    tags.retainOnly(new Set(snapshot.orders.filter((order) => !isDone(order.status)).map((order) => order.id)))
    return { snapshot, scope }
  }
}
