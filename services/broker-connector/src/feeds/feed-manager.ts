import type { KV } from '@nats-io/kv'
import { FeedStatusV1, contract, feedStatusKey, type FeedStatus } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import type { CredentialsCipher } from '@signals/secrets'
import type { Logger } from '../shared/logger.ts'
import { BrokerError, type BrokerEndpointsTable, type BrokerEvent, type BrokerSession, type BrokerVenue } from './broker/broker-adapter.ts'
import { BrokerAdapters, type BrokerAdapterOverrides } from './broker/adapters.ts'
import { FeedError } from './feed-error.ts'
import { isLive, liveUsers } from '../repositories/feeds.ts'
import { feedLoginOf, type FeedLogin } from './feed-login.ts'
import { boundedDetail } from './status-detail.ts'

const statusContract = contract(FeedStatusV1)

export interface FeedManagerOptions {
  db: Kysely<Database>
  cipher: CredentialsCipher
  /** The FEED_STATUS bucket. */
  status: KV
  /** Where each broker's environments are reached. */
  endpoints: BrokerEndpointsTable
  logger: Logger
  /** First reconnect delay after a lost session; doubles up to 30 s. */
  reconnectMs?: number
  connectTimeoutMs?: number
  /** Adapters replacing the registry's for some brokers (tests); each login opens with its own broker's adapter. */
  adapters?: BrokerAdapterOverrides
  /** PROJECTX_RESTING_OWN_LEGS: resting entries taken on ProjectX accounts that refuse brackets. */
  restingOwnLegs?: boolean
  /** Whether this instance holds the user's feed now (its shard lease); default: every user. */
  owns?(userId: string): boolean
  /** Named in each status written (which instance holds the feed). */
  instanceId?: string
}

/**
 * What the rooms above the feeds (trading, and tests) hear of each session: added with `addHooks`, called
 * in the order added. The feeds know nothing of what listens.
 */
export interface FeedSessionHooks {
  /** Every event of a user's session after its snapshot (orders, fills, positions, cash). */
  onEvent?(userId: string, event: BrokerEvent): void
  /**
   * Called after every connect and reconnect, before the feed is reported `connected` and before
   * `session(userId)` hands the session out (e.g. to reconcile orders by tag), with the venue the session
   * is of (its broker ids are unique only there). A throw closes the session and it is tried again like a
   * lost one.
   */
  onSessionOpen?(userId: string, session: BrokerSession, venue: BrokerVenue): Promise<void>
  /** A sentence added to the `connected` status (e.g. events set aside), or null. Asked at every write. */
  statusNote?(userId: string): string | null
  /**
   * Called when a stop command (live trading switched off) is about to close an open session, with it (not
   * when a shard moves or the instance closes): pending exits are sent first. A throw is logged; the stop
   * goes on.
   */
  onSessionStopping?(userId: string, session: BrokerSession): Promise<void>
  /** The user's feed is no longer held here (stopped, its shard given up, the instance closing): what it told is stale. */
  onFeedDropped?(userId: string): void
}

interface UserFeed {
  connection: BrokerSession | null
  reconnect: NodeJS.Timeout | undefined
  attempts: number
  /** Bumped by every start/stop: a connect that finishes after a newer command is discarded. */
  generation: number
  /** What `connected` said (the account) and since when: repeated by the status refresh. */
  detail: string | null
  connectedAt: string | null
}

/**
 * Keeps each user's real-time broker session (spec: live connection per user) and publishes its state to
 * the FEED_STATUS bucket: `connecting`, `connected`, `error` (with a reason safe to show), `stopped`.
 * Commands for one user run one after another; a lost session is re-opened with growing delay until a
 * stop.
 */
export class FeedManager {
  readonly #feeds = new Map<string, UserFeed>()
  readonly #queues = new Map<string, Promise<void>>()
  /** When each user's broker was last heard from (kept across reconnects, for the status). */
  readonly #lastHeard = new Map<string, string>()
  /** The state last written for each user whose feed this instance holds (for the feeds metric). */
  readonly #states = new Map<string, FeedStatus['state']>()
  /**
   * Users whose session is being opened here: logged in, the session-open hooks under way, not handed out
   * yet (one open per user at a time: starts and reconnects run in the user's queue).
   */
  readonly #opening = new Set<string>()
  readonly #resumes = new Set<Promise<number>>()
  #closed = false

  readonly #adapters: BrokerAdapters
  readonly #hooks: FeedSessionHooks[] = []

  constructor(private readonly options: FeedManagerOptions) {
    this.#adapters = new BrokerAdapters(options.adapters, { db: options.db, logger: options.logger, restingOwnLegs: options.restingOwnLegs ?? false })
  }

  /** Adds listeners of every session (registered before the feeds start: sessions open at onReady). */
  addHooks(hooks: FeedSessionHooks): void {
    this.#hooks.push(hooks)
  }

  /** The user's open, reconciled session, or null while none is. */
  session(userId: string): BrokerSession | null {
    return this.#feeds.get(userId)?.connection ?? null
  }

  /**
   * Whether a session of the user is being opened here now (not handed out yet): what needs a session may
   * wait for it rather than conclude there is none. Bounded by the connect time-out and the hooks' work.
   */
  opening(userId: string): boolean {
    return this.#opening.has(userId)
  }

  /**
   * Whether a feed of the user is kept here: open, opening, or waiting to reconnect. A refused login keeps
   * none, so nothing tries it again until a start or restart command (tests check this instead of waiting).
   */
  hasFeed(userId: string): boolean {
    return this.#feeds.has(userId)
  }

  /** How many feeds this instance holds are up (`connected`) and down (`connecting`, `error`); stopped ones are not counted. */
  feedCounts(): { up: number; down: number } {
    let up = 0
    for (const state of this.#states.values()) if (state === 'connected') up++
    return { up, down: this.#states.size - up }
  }

  /** Whether this instance holds the user's feed now (its shard lease). */
  holds(userId: string): boolean {
    return this.options.owns?.(userId) ?? true
  }

  /** Users with an open session (for tests and metrics). */
  connectedUsers(): string[] {
    return [...this.#feeds].filter(([, feed]) => feed.connection !== null).map(([userId]) => userId)
  }

  start(userId: string): Promise<void> {
    return this.#serial(userId, () => this.#start(userId, false))
  }

  restart(userId: string): Promise<void> {
    return this.#serial(userId, () => this.#start(userId, true))
  }

  stop(userId: string): Promise<void> {
    return this.#serial(userId, async () => {
      const session = this.#feeds.get(userId)?.connection
      for (const hooks of this.#hooks) {
        if (session) await hooks.onSessionStopping?.(userId, session).catch((error: unknown) => this.options.logger.warn({ userId, err: error }, 'pending exits not sent before the stop'))
      }
      this.#drop(userId)
      await this.#publish(userId, 'stopped', null)
    })
  }

  /** A session for every user whose live trading is on (and who is `included`). Returns how many were started. */
  resumeAll(included: (userId: string) => boolean = () => true): Promise<number> {
    const resume = (async () => {
      const users = (await liveUsers(this.options.db)).filter(included)
      await Promise.all(users.map((userId) => this.start(userId)))
      return users.length
    })()
    this.#resumes.add(resume)
    void resume.catch(() => undefined).finally(() => this.#resumes.delete(resume))
    return resume
  }

  /**
   * Settles once every resume begun so far has: a shard taken at start reads its live users a moment after
   * the start returns, so what is made live just after may be resumed by it or not (tests wait on this).
   */
  async resumed(): Promise<void> {
    await Promise.allSettled([...this.#resumes])
  }

  /** Closes the matching users' sessions at once, statuses untouched (their new holder writes them). */
  dropWhere(matches: (userId: string) => boolean): number {
    const users = [...this.#feeds.keys()].filter(matches)
    for (const userId of users) {
      this.#drop(userId)
      this.#states.delete(userId)
    }
    return users.length
  }

  /**
   * Writes `connected` again for every open session with when the broker was last heard from, so the
   * status shows a feed whose holder died (its lastHeardAt stops moving). Sequential: with a thousand
   * users this is a steady trickle of small writes, not a burst.
   */
  async refreshStatuses(): Promise<void> {
    for (const [userId, feed] of [...this.#feeds]) {
      if (!feed.connection || this.#closed) continue
      await this.#publish(userId, 'connected', this.#connectedDetail(userId, feed), feed.connectedAt)
    }
  }

  /** Closes every session without changing the stored states (another instance may take over). */
  async closeAll(): Promise<void> {
    this.#closed = true
    await Promise.all([...this.#queues.values()])
    for (const userId of [...this.#feeds.keys()]) this.#drop(userId)
    await this.#adapters.close()
  }

  #serial(userId: string, work: () => Promise<void>): Promise<void> {
    const previous = this.#queues.get(userId) ?? Promise.resolve()
    const next = previous.then(work, work)
    const settled = next.catch(() => undefined)
    this.#queues.set(userId, settled)
    void settled.finally(() => {
      if (this.#queues.get(userId) === settled) this.#queues.delete(userId)
    })
    return next
  }

  #drop(userId: string): void {
    const feed = this.#feeds.get(userId)
    if (!feed) return
    feed.generation++
    clearTimeout(feed.reconnect)
    feed.connection?.close()
    this.#feeds.delete(userId)
    for (const hooks of this.#hooks) hooks.onFeedDropped?.(userId)
  }

  async #start(userId: string, replace: boolean): Promise<void> {
    if (this.#closed) return
    // Another instance holds this user's feed (or will): nothing to open here.
    if (this.options.owns && !this.options.owns(userId)) return this.#drop(userId)
    // The database is the truth: a start that arrives late (redelivered after a later stop) opens nothing.
    if (!(await isLive(this.options.db, userId))) {
      this.#drop(userId)
      await this.#publish(userId, 'stopped', 'live trading is off')
      return
    }
    const existing = this.#feeds.get(userId)
    if (existing?.connection && !replace) return
    const feed: UserFeed = { connection: null, reconnect: undefined, attempts: 0, generation: 0, detail: null, connectedAt: null }
    await this.#connect(userId, feed, true)
  }

  /**
   * Opening (`opening(userId)`) from here until the session is handed out or the attempt ends; a new feed
   * replaces the old one inside, so what needs a session waits for the new one rather than find none in
   * between (a status write and a credentials read).
   */
  async #connect(userId: string, feed: UserFeed, replacing = false): Promise<void> {
    this.#opening.add(userId)
    try {
      if (replacing) {
        this.#drop(userId)
        this.#feeds.set(userId, feed)
      }
      await this.#loginAndOpen(userId, feed)
    } finally {
      this.#opening.delete(userId)
    }
  }

  async #loginAndOpen(userId: string, feed: UserFeed): Promise<void> {
    const generation = feed.generation
    const current = () => !this.#closed && this.#feeds.get(userId) === feed && feed.generation === generation
    await this.#publish(userId, 'connecting', null)
    let login: FeedLogin | null
    try {
      login = await this.#loginFor(userId)
    } catch (error) {
      if (!current()) return
      this.#feeds.delete(userId)
      await this.#publish(userId, 'error', error instanceof FeedError ? error.message : 'broker credentials could not be read')
      return
    }
    if (!login) {
      if (!current()) return
      this.#feeds.delete(userId)
      await this.#publish(userId, 'error', 'no broker credentials')
      return
    }
    await this.#openSession(userId, feed, login, current)
  }

  /** Opens the broker session; a refused login stops here, any other failure is tried again after its wait. */
  async #openSession(userId: string, feed: UserFeed, login: FeedLogin, current: () => boolean): Promise<void> {
    let session: BrokerSession | null = null
    let lost = false
    try {
      session = await this.#adapters.openSession(login.endpoints, login.login, {
        timeoutMs: this.options.connectTimeoutMs,
        onEvent: (event) => {
          if (current()) for (const hooks of this.#hooks) hooks.onEvent?.(userId, event)
        },
        onLost: (reason) => {
          lost = true
          if (!current()) return
          if (feed.connection) this.#lastHeard.set(userId, feed.connection.lastHeardAt().toISOString())
          feed.connection = null
          this.options.logger.warn({ userId, reason }, 'broker feed lost; reconnecting')
          void this.#publish(userId, 'error', `${reason}; reconnecting`).catch(() => undefined)
          this.#scheduleReconnect(userId, feed)
        },
      })
      if (!current()) return session.close()
      for (const hooks of this.#hooks) await hooks.onSessionOpen?.(userId, session, login.venue)
      // Lost while the hook ran: the reconnect is already scheduled.
      if (!current() || lost) return session.close()
      feed.connection = session
      feed.attempts = 0
      feed.detail = `account ${session.snapshot.account.name}`
      feed.connectedAt = new Date().toISOString()
      this.options.logger.info({ userId }, 'broker feed connected')
      await this.#publish(userId, 'connected', this.#connectedDetail(userId, feed), feed.connectedAt)
    } catch (error) {
      session?.close()
      if (!current()) return
      feed.connection = null
      await this.#failed(userId, feed, error)
    }
  }

  async #failed(userId: string, feed: UserFeed, error: unknown): Promise<void> {
    const reason = error instanceof BrokerError ? error.message : 'broker session could not be opened'
    this.options.logger.warn({ userId, reason, kind: error instanceof BrokerError ? error.kind : undefined }, 'broker feed failed')
    // A refused login, or a login without the saved account, will not fix itself: wait for new credentials (a restart command).
    if (error instanceof BrokerError && (error.kind === 'credentials_refused' || error.kind === 'account_not_found')) {
      this.#feeds.delete(userId)
      await this.#publish(userId, 'error', reason)
      return
    }
    const waitMs = error instanceof BrokerError ? error.retryAfterMs : null
    const delay = this.#scheduleReconnect(userId, feed, waitMs ?? 0)
    await this.#publish(userId, 'error', `${reason}; retrying in ${Math.ceil(delay / 1000)} s`)
  }

  /** Schedules the next attempt after the doubling delay, or the broker's wait when longer; returns the delay. */
  #scheduleReconnect(userId: string, feed: UserFeed, minimumMs = 0): number {
    if (this.#closed) return 0
    const delay = Math.max(minimumMs, Math.min(30_000, (this.options.reconnectMs ?? 1_000) * 2 ** feed.attempts))
    feed.attempts++
    clearTimeout(feed.reconnect)
    const generation = feed.generation
    feed.reconnect = setTimeout(() => {
      void this.#serial(userId, async () => {
        if (this.#feeds.get(userId) !== feed || feed.generation !== generation) return
        await this.#connect(userId, feed)
      }).catch((error: unknown) => this.options.logger.warn({ userId, err: error }, 'broker feed reconnect failed'))
    }, delay)
    return delay
  }

  /** What `connected` says: the account, and the trade keeper's note (events set aside) when there is one. */
  #connectedDetail(userId: string, feed: UserFeed): string | null {
    const note = this.#hooks.map((hooks) => hooks.statusNote?.(userId) ?? null).find((text) => text !== null) ?? null
    return note === null ? feed.detail : `${feed.detail}; ${note}`
  }

  #loginFor(userId: string): Promise<FeedLogin | null> {
    return feedLoginOf(this.options.db, this.options.cipher, this.options.endpoints, userId)
  }

  async #publish(userId: string, state: FeedStatus['state'], detail: string | null, since?: string | null): Promise<void> {
    if (state === 'stopped') this.#states.delete(userId)
    else this.#states.set(userId, state)
    const connection = this.#feeds.get(userId)?.connection
    if (connection) this.#lastHeard.set(userId, connection.lastHeardAt().toISOString())
    const value: FeedStatus = {
      version: 1,
      userId,
      state,
      detail: detail === null ? null : boundedDetail(detail),
      updatedAt: since ?? new Date().toISOString(),
      lastHeardAt: this.#lastHeard.get(userId) ?? null,
      ...(this.options.instanceId === undefined ? {} : { instanceId: this.options.instanceId }),
    }
    if (!statusContract.check(value)) return
    try {
      await this.options.status.put(feedStatusKey(userId), JSON.stringify(value))
    } catch (error) {
      this.options.logger.warn({ userId, state, err: error }, 'feed status not written')
    }
  }
}
