import type { HubConnection } from '@microsoft/signalr'
import { decimalText } from '../../../shared/decimal-text.ts'
import { isDone, type BrokerAdapter, type BrokerEndpoints, type BrokerSession, type BrokerSnapshot, type SessionOptions } from '../broker-adapter.ts'
import { invokeHub, openHub } from './hub-connection.ts'
import { loginWithKey, validateToken, type ProjectXLogin } from './login.ts'
import { num, present, toBrokerFill, toBrokerPosition, isFields, withoutRefusedTwins } from './mapping.ts'
import { LegPrices } from './leg-prices.ts'
import { MarketQuotes } from './market-quotes.ts'
import { OwnLegs } from './own-legs.ts'
import { MemoryOwnLegStore, type OwnLegStore } from './own-leg-store.ts'
import type { Logger } from '../../../shared/logger.ts'
import { RateWindow } from './rate-window.ts'
import { callApi, type RestOptions } from './rest.ts'
import { savedAccount } from './saved-account.ts'
import { LOOKBACK_MS, ProjectXSession, restOrders, type Call } from './session.ts'
import { TokenKeeper } from './token-keeper.ts'
import { USER_HUB_TARGETS, UserEvents, userRecordOf } from './user-events.ts'
import { tracked, UserState } from './user-state.ts'

/** An adapter made without the connector's logger (a login test, the adapter's own tests). */
const SILENT: Logger = { info: () => undefined, warn: () => undefined }

export interface ProjectXAdapterOptions {
  /** ProjectX's rate limit per login (200 requests per 60 s). */
  rateLimit?: { limit: number; windowMs: number }
  /** The longest a rate-limit wait is sat out before a call fails `rate_limited`. Default 10 s. */
  maxRateWaitMs?: number
  /** Validate the token this long before it expires (at most a quarter of its remaining life). Default 1 h. */
  renewBeforeMs?: number
  /** A hub connection is lost after this long without a message (its pings every 15 s included). Default 40 s. */
  silenceMs?: number
  /** How long an entry's fill waits for its bracket legs' events. Default 2 s. */
  legWaitMs?: number
  /** How long a new quote subscription waits for its first quote. Default 2 s. */
  firstQuoteWaitMs?: number
  /**
   * How long a read waits for the user hub to show what the session's own last requests did before it reads
   * REST instead (user-state.ts). Default 1 s.
   */
  hubWaitMs?: number
  /**
   * Where the legs we place on accounts that refuse brackets are planned (own-legs.ts). Default: this
   * process's memory, which takes market entries only there (a resting one could fill after a restart).
   */
  ownLegs?: OwnLegStore
  /** Where a leg of ours that could not be placed or grown is logged (the connector's logger). Default: nowhere. */
  logger?: Logger
  /**
   * Resting (limit, stop) entries taken on an account that refuses brackets, their legs planned in a durable
   * store (PROJECTX_RESTING_OWN_LEGS, default off): see OWN_LEGS_MARKET_ONLY in session.ts for why it is off.
   */
  restingOwnLegs?: boolean
  /** How long a failed bringing-up of our legs waits before it is tried again (own-legs.ts). Default 5 s. */
  ownLegRetryMs?: number
}

/**
 * ProjectX's Gateway API: `Auth/loginKey`, REST for every request, the user hub (SignalR) for orders,
 * trades, positions and the account. The endpoints: `restUrl` the API base, `wsUrl` the user hub, `mdUrl`
 * the market hub. See docs/decisions/projectx-adapter.md.
 */
export class ProjectXAdapter implements BrokerAdapter<'projectx'> {
  /** One rate window per login (API base and user name), shared by its sessions as ProjectX counts them. */
  readonly #windows = new Map<string, RateWindow>()
  /** The legs we place ourselves, per account (API base and account id): a reconnect's session carries on with them. */
  readonly #ownLegs = new Map<string, OwnLegs>()
  readonly #ownLegStore: OwnLegStore

  constructor(private readonly options: ProjectXAdapterOptions = {}) {
    this.#ownLegStore = options.ownLegs ?? new MemoryOwnLegStore()
  }

  async openSession(endpoints: BrokerEndpoints, login: ProjectXLogin, options: SessionOptions): Promise<BrokerSession> {
    const timeoutMs = options.timeoutMs ?? 10_000
    const silenceMs = this.options.silenceMs ?? 40_000
    const rest: RestOptions = { baseUrl: endpoints.restUrl.replace(/\/+$/, ''), timeoutMs, window: this.#window(endpoints, login), maxWaitMs: this.options.maxRateWaitMs ?? 10_000 }
    const token = await loginWithKey(rest, login)
    let established = false
    let ended = false
    let heardAt = Date.now()
    const lose = (reason: string) => {
      if (ended) return
      ended = true
      shutDown()
      if (established) options.onLost(reason)
    }
    const keeper = new TokenKeeper(token, (current) => validateToken(rest, current), this.options.renewBeforeMs ?? 3_600_000, lose)
    const state = new UserState(this.options.hubWaitMs ?? 1_000)
    // Every request that changes the account is noted in the state: a read after it waits for the hub to show it.
    const call: Call = tracked((endpoint, body) => callApi(rest, endpoint, body, keeper.token), state)
    let accountId = 0
    const legPrices = new LegPrices(
      (entryId) => events.entryTagOf(entryId),
      async (orderId, fields) => void (await call('Order/modify', { accountId, orderId, ...fields })),
    )
    let ownLegs: OwnLegs | null = null
    const events = new UserEvents(
      options.onEvent,
      this.options.legWaitMs ?? 2_000,
      (order) => {
        legPrices.seen(order)
        ownLegs?.orderSeen(order)
      },
      (trade, tag) => ownLegs?.traded(trade, tag),
      // Known from the account's Account/search on (`#synchronise`): the snapshot's orders are mapped with it too.
      (order) => ownLegs?.untaggedTagOf(order) ?? null,
    )
    const quotes = new MarketQuotes({ url: endpoints.mdUrl, token: () => keeper.token, timeoutMs, silenceMs, firstQuoteWaitMs: this.options.firstQuoteWaitMs ?? 2_000 })
    let hub: HubConnection | null = null
    const shutDown = () => {
      keeper.stop()
      events.close()
      quotes.close()
      void hub?.stop().catch(() => undefined)
    }
    hub = await openHub({ url: endpoints.wsUrl, token: () => keeper.token, timeoutMs, silenceMs, onLost: lose })
    for (const target of USER_HUB_TARGETS) {
      hub.on(target, (...args: unknown[]) => {
        heardAt = Date.now()
        const record = userRecordOf(args.at(-1))
        if (record !== null) state.receive(target, record)
        events.receive(target, args.at(-1))
      })
    }
    let snapshot: BrokerSnapshot
    try {
      snapshot = await this.#synchronise(call, hub, events, state, login.account, async (id) => {
        ownLegs = this.#ownLegsOf(endpoints, id)
        await ownLegs.loadLateCloses(id)
      })
    } catch (error) {
      ended = true
      shutDown()
      throw error
    }
    established = true
    accountId = snapshot.account.id
    ownLegs = this.#ownLegsOf(endpoints, accountId)
    ownLegs.attach(call, accountId, async (fresh) => (!fresh && (await state.settled()) ? state.orders(Date.now() - LOOKBACK_MS) : (await restOrders(call, accountId)).filter(isFields)))
    try {
      await this.#resumeOwnLegs(ownLegs, snapshot, events)
    } catch (error) {
      ended = true
      shutDown()
      throw error
    }
    keeper.start()
    events.start(snapshot.account.id)
    return new ProjectXSession(snapshot, call, events, state, legPrices, ownLegs, quotes, () => new Date(heardAt), () => {
      ended = true
      shutDown()
    })
  }

  /**
   * The legs' plans of the entries the snapshot lists (read before the events go out, so a fill of one waits
   * for its legs as in the session that placed it), and the fills made while no session listened: an entry of
   * ours still to be covered is covered now (own-legs.ts). A plan that cannot be read fails the open (tried
   * again as a lost session): a session that did not know them would leave a fill without its stop.
   */
  async #resumeOwnLegs(ownLegs: OwnLegs, snapshot: BrokerSnapshot, events: UserEvents): Promise<void> {
    const entries = snapshot.orders.filter((order) => order.tag !== null && order.parentId === null)
    const fills = snapshot.fills.map((fill) => ({ id: fill.id, size: fill.quantity, tag: events.entryTagOf(fill.orderId) }))
    const plans = await ownLegs.resume(entries.map((order) => order.tag as string), fills)
    for (const plan of plans) {
      const entry = entries.find((order) => order.tag === plan.tag)
      const due = plan.legs.filter((leg) => leg.orderId === null && !leg.sent && leg.outcome === null).length
      if (entry && !isDone(entry.status)) events.expectLegsOf(entry.id, due)
    }
  }

  /**
   * The app closes (the feeds' close, after their sessions): each account's own legs clear their retry timer
   * and finish the work under way, before the database pool they write to closes.
   */
  async close(): Promise<void> {
    await Promise.all([...this.#ownLegs.values()].map((ownLegs) => ownLegs.close()))
  }

  #ownLegsOf(endpoints: BrokerEndpoints, accountId: number): OwnLegs {
    const key = `${endpoints.restUrl}\n${accountId}`
    const known = this.#ownLegs.get(key)
    if (known) return known
    const created = new OwnLegs(this.#ownLegStore, this.options.logger ?? SILENT, this.options.restingOwnLegs ?? false, this.options.ownLegRetryMs)
    this.#ownLegs.set(key, created)
    return created
  }

  #window(endpoints: BrokerEndpoints, login: ProjectXLogin): RateWindow {
    const key = `${endpoints.restUrl}\n${login.username}`
    let window = this.#windows.get(key)
    if (!window) {
      const rule = this.options.rateLimit ?? { limit: 200, windowMs: 60_000 }
      window = new RateWindow(rule.limit, rule.windowMs)
      this.#windows.set(key, window)
    }
    return window
  }

  /**
   * The saved account from `Account/search`, the user hub subscribed for it (events held until the
   * snapshot is taken, so nothing falls between the two), then its orders of the last day and those still
   * working, its trades of the last day, its open positions and its balance (read again after subscribing):
   * the snapshot, and the seed of the session's state (user-state.ts), which
   * the events received meanwhile are applied on. `found` is told the account once known: its own legs
   * (kept across sessions) load its late closes kept in Postgres and name their orders among the snapshot's.
   */
  async #synchronise(call: Call, hub: HubConnection, events: UserEvents, state: UserState, wanted: string, found: (accountId: number) => Promise<void>): Promise<BrokerSnapshot> {
    const accounts = await call('Account/search', { onlyActiveAccounts: false })
    const account = savedAccount(accounts, wanted)
    await found(account.id)
    await invokeHub(hub, 'SubscribeAccounts')
    for (const method of ['SubscribeOrders', 'SubscribePositions', 'SubscribeTrades']) await invokeHub(hub, method, account.id)
    const since = new Date(Date.now() - LOOKBACK_MS).toISOString()
    // The balance is read again here, after SubscribeAccounts: a change between the first Account/search and
    // the subscription is in this answer, one after it in the account events applied on the seed.
    const [orders, trades, positions, afterSubscribing] = await Promise.all([
      restOrders(call, account.id),
      call('Trade/search', { accountId: account.id, startTimestamp: since }),
      call('Position/searchOpen', { accountId: account.id }),
      call('Account/search', { onlyActiveAccounts: false }),
    ])
    const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
    events.learn(orders)
    const balance = list(afterSubscribing.accounts).filter(isFields).find((candidate) => candidate.id === account.id)?.balance
    state.seed(account.id, { orders, trades: list(trades.trades), positions: list(positions.positions), balance: num(balance) })
    return {
      account,
      orders: withoutRefusedTwins(orders.map(events.toOrder).filter(present)),
      fills: list(trades.trades).map(toBrokerFill).filter(present),
      positions: list(positions.positions).map(toBrokerPosition).filter(present),
      // The state's: the seed's balance, or an account event's received since the subscription.
      cashBalance: decimalText(state.balance()),
      realizedPnl: null,
    }
  }
}
