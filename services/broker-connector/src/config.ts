import { Env, Type, url, type Static } from '@signals/config'

/** Everything the broker-connector service reads from its environment. */
export const ConfigSchema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  LOG_LEVEL: Env.LOG_LEVEL,
  /** Its own listen address only: HOST=0.0.0.0 meant for the gateway must not expose it (issue 15). */
  BROKER_CONNECTOR_HOST: Env.BROKER_CONNECTOR_HOST,
  BROKER_CONNECTOR_PORT: Env.BROKER_CONNECTOR_PORT,
  DATABASE_URL: Env.DATABASE_URL,
  NATS_URL: Env.NATS_URL,
  NATS_USER: Env.NATS_USER,
  NATS_PASSWORD: Env.NATS_PASSWORD,
  NATS_TOKEN: Env.NATS_TOKEN,
  BUS_NAMESPACE: Env.BUS_NAMESPACE,
  BUS_REPLICAS: Env.BUS_REPLICAS,
  INTERNAL_AUTH_SECRET: Env.INTERNAL_AUTH_SECRET,
  ALERT_ROUTING: Env.ALERT_ROUTING,
  CREDENTIALS_KEY: Env.CREDENTIALS_KEY,
  CREDENTIALS_KEY_ID: Env.CREDENTIALS_KEY_ID,
  CREDENTIALS_PREVIOUS_KEYS: Env.CREDENTIALS_PREVIOUS_KEYS,
  /** Alert messages one instance handles at once per subject (more instances scale further). */
  CONSUMER_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: 4, description: 'messages handled at once per subject' }),
  /**
   * Deliveries before a message failing for a reason of its own is dead-lettered. A dependency outage
   * (Postgres, NATS) never exhausts it: such a message waits, however long (durables/start-durable.ts).
   */
  CONSUMER_MAX_ATTEMPTS: Type.Integer({ minimum: 2, maximum: 100, default: 10, description: 'deliveries before dead-lettering' }),
  /**
   * Byte bound of the DEAD_LETTERS stream, which this service's consumers write (issue 22: a burst of bad
   * messages must not fill the server). Unset: the bound the stream has, 128 MiB when new; the oldest
   * letters are discarded beyond it.
   */
  DEAD_LETTERS_STREAM_MAX_BYTES: Type.Optional(Type.Integer({ minimum: 1024 * 1024, description: 'byte bound of the DEAD_LETTERS stream (unset: as it is)' })),
  /** How long the server waits for an ack before handing a message to another instance (a crashed one never acks). */
  /** Longest wait between deliveries of a failing message; an outage is retried this often once reached. */
  CONSUMER_BACKOFF_MAX_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000, description: 'longest delay between deliveries of a failing message' }),
  CONSUMER_ACK_WAIT_MS: Type.Integer({ minimum: 1_000, maximum: 600_000, default: 30_000, description: 'ack wait before redelivery' }),
  /** An entry alert older than this is never sent to the broker (first send, or after a crash). */
  ENTRY_MAX_AGE_MS: Type.Integer({ minimum: 1_000, maximum: 600_000, default: 60_000, description: 'oldest entry alert still sent to the broker' }),
  /**
   * How long an entry waits for the user's broker session before its record fails ("broker connection not
   * up"). Keep it above the worst feed take-over (FEED_LEASE_TTL_MS plus a lease tick plus a broker login,
   * about 15 s with the defaults): an entry for a user whose feed is moving between instances then waits.
   */
  ENTRY_SESSION_WAIT_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 30_000, description: 'wait for a broker session before failing an entry' }),
  /**
   * Records of one alert decided, and orders sent, at once. Each user's calls go to their own session, so
   * a whole fan-out can be in flight together (a broker rate-limits per user, not per connector).
   */
  ENTRY_PARALLELISM: Type.Integer({ minimum: 1, maximum: 5_000, default: 1_000, description: 'records decided and orders sent at once' }),
  /**
   * Records of one hand-off settled (and locked) together; a larger fan-out is settled slice after slice.
   * Each record and its account hold a Postgres advisory lock while their slice is settled, and Postgres'
   * lock table is shared by every session on the server (max_locks_per_transaction x max_connections, about
   * 6,400 by default): past it every session gets "out of shared memory". One hand-off holds at most twice
   * this, and an instance runs several at once (docs/decisions/broker-connector.md, "Hand-offs in slices").
   */
  ENTRY_HANDOFF_SLICE: Type.Integer({ minimum: 1, maximum: 2_000, default: 500, description: 'records of one hand-off settled and locked together' }),
  /**
   * How long a broker request waits for its answer. An order without an answer by then has an unknown
   * outcome: it is never sent again (docs/decisions/broker-connector.md, "Money safety").
   */
  BROKER_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 200, maximum: 120_000, default: 10_000, description: 'wait for a broker answer' }),
  /**
   * After an order's outcome became unknown, how long its record waits for the broker's events or order
   * list to show the order before it fails "outcome unknown: check the broker". Keep it well beyond the
   * broker's worst latency. A smaller value than ENTRY_MAX_AGE_MS or twice BROKER_REQUEST_TIMEOUT_MS is
   * raised to the larger of them: past the grace the alert is too old to send, so failing loses no order.
   */
  ENTRY_OUTCOME_GRACE_MS: Type.Integer({ minimum: 1_000, maximum: 3_600_000, default: 60_000, description: 'wait for an unknown order outcome' }),
  /** How often each instance looks for records left `received` or `placing` past their time (the sweep). */
  ENTRY_SWEEP_INTERVAL_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 5_000, description: 'sweep of stranded entry records' }),
  /**
   * How often each instance reconciles the broker's positions and working orders with our open trades and
   * records, for every session it holds (also done when a session opens). Differences are repaired where the
   * rule is clear and always shown to the trader (docs/decisions/broker-connector.md, "Reconciliation with the broker").
   */
  POSITION_RECONCILE_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 60_000, description: 'reconciliation of positions with the broker' }),
  /** Hold a share of the per-user broker feeds in this instance (instances share users by shard leases). */
  FEEDS_ENABLED: Type.Boolean({ default: true, description: 'hold per-user broker feeds in this instance' }),
  /**
   * A shard lease not renewed for this long expires and another instance takes its users over (a killed
   * instance's feeds move within about this plus a tick of FEED_LEASE_TTL_MS / 5). Every instance of a
   * deployment must use the same value (it is the FEED_OWNERS bucket's TTL).
   */
  FEED_LEASE_TTL_MS: Type.Integer({ minimum: 1_000, maximum: 120_000, default: 10_000, description: 'feed shard lease TTL' }),
  /** Users are hashed into this many shards, the unit of ownership. The same on every instance. */
  FEED_SHARDS: Type.Integer({ minimum: 1, maximum: 1_024, default: 32, description: 'feed ownership shards' }),
  /** How often each connected user's status is written again with when the broker was last heard from. */
  FEED_STATUS_REFRESH_MS: Type.Integer({ minimum: 500, maximum: 600_000, default: 10_000, description: 'feed status refresh period' }),
  /** How long an instance waits for the owner of a user's feed to settle forwarded entry records (and flattens). */
  ENTRY_FORWARD_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 10_000, description: 'wait for the feed owner to settle entries' }),
  /**
   * How often an instance looks for flattens due (a broker wait over, or a handoff that did not reach it) of
   * users whose sessions it holds, and carries them out.
   */
  FLATTEN_SWEEP_MS: Type.Integer({ minimum: 200, maximum: 600_000, default: 2_000, description: 'pending flatten sweep period' }),
  TRADOVATE_DEMO_URL: url(['http', 'https'], 'https://demo.tradovateapi.com/v1', 'Tradovate demo REST base'),
  TRADOVATE_DEMO_WS_URL: url(['ws', 'wss'], 'wss://demo.tradovateapi.com/v1/websocket', 'Tradovate demo real-time socket'),
  TRADOVATE_LIVE_URL: url(['http', 'https'], 'https://live.tradovateapi.com/v1', 'Tradovate live REST base'),
  TRADOVATE_LIVE_WS_URL: url(['ws', 'wss'], 'wss://live.tradovateapi.com/v1/websocket', 'Tradovate live real-time socket'),
  /** Tradovate's market-data hosts (quotes for sizing market entries from the broker's price). */
  TRADOVATE_DEMO_MD_URL: url(['ws', 'wss'], 'wss://md-demo.tradovateapi.com/v1/websocket', 'Tradovate demo market-data socket'),
  TRADOVATE_LIVE_MD_URL: url(['ws', 'wss'], 'wss://md.tradovateapi.com/v1/websocket', 'Tradovate live market-data socket'),
  /**
   * ProjectX's Gateway API: the API base and its SignalR hubs, per environment (ProjectX's own demo gateway
   * and TopstepX live by default; another ProjectX firm sets its own). `pnpm start` points both at the
   * ProjectX paper broker (dev/paper-broker-projectx) in development.
   */
  PROJECTX_DEMO_API_URL: url(['http', 'https'], 'https://gateway-api-demo.s2f.projectx.com', 'ProjectX demo API base'),
  PROJECTX_DEMO_USER_HUB_URL: url(['http', 'https'], 'https://gateway-rtc-demo.s2f.projectx.com/hubs/user', 'ProjectX demo user hub'),
  PROJECTX_DEMO_MARKET_HUB_URL: url(['http', 'https'], 'https://gateway-rtc-demo.s2f.projectx.com/hubs/market', 'ProjectX demo market hub'),
  PROJECTX_LIVE_API_URL: url(['http', 'https'], 'https://api.topstepx.com', 'ProjectX live API base (TopstepX)'),
  PROJECTX_LIVE_USER_HUB_URL: url(['http', 'https'], 'https://rtc.topstepx.com/hubs/user', 'ProjectX live user hub (TopstepX)'),
  PROJECTX_LIVE_MARKET_HUB_URL: url(['http', 'https'], 'https://rtc.topstepx.com/hubs/market', 'ProjectX live market hub (TopstepX)'),
  /** The development paper broker (dev/paper-broker), for credentials saved with broker "paper". */
  PAPER_BROKER_URL: url(['http', 'https'], 'http://127.0.0.1:3011/v1', 'paper broker REST base'),
  PAPER_BROKER_WS_URL: url(['ws', 'wss'], 'ws://127.0.0.1:3011/v1/websocket', 'paper broker real-time socket'),
  /** The paper broker serves market data on its real-time socket URL (a socket authorized with the md token). */
  PAPER_BROKER_MD_URL: Type.Optional(
    Type.String({ pattern: '^(ws|wss)://[^\\s]+$', 'x-expected': 'a ws or wss URL', description: 'paper broker market-data socket (default: PAPER_BROKER_WS_URL)' }),
  ),
  /**
   * The platform's ceiling on one order's contracts, whatever a trader's configuration allows (each
   * trader's own limit, limits.maxContractsPerOrder, is at most 100). 50 is the most contracts a
   * 50,000 evaluation account is commonly allowed (50 micros); raise it for larger accounts.
   */
  MAX_CONTRACTS_PER_ORDER: Type.Integer({ minimum: 1, maximum: 1_000, default: 50, description: "platform ceiling on one order's contracts" }),
  /**
   * A market price older than this (the quote's own time, or its arrival if earlier) is not used: the
   * market entry is refused. An open market quotes many times a second; a minute without one means a
   * closed or stuck market.
   */
  MARKET_PRICE_MAX_AGE_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 60_000, description: 'oldest market price a market entry is sized from' }),
  /**
   * How often the risk watchdog checks the accounts with open trades held here against the hard daily loss
   * limit and the trailing floor, with their open pnl (one indexed query a pass when nobody holds a trade).
   */
  RISK_WATCHDOG_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 2_000, description: 'risk watchdog interval over open positions' }),
  /**
   * How often the users' daily flatten times (session rules) are looked at: a flatten happens at most this
   * long after its time (one indexed query a pass).
   */
  DAILY_FLATTEN_CHECK_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000, description: 'interval of the daily-flatten check' }),
  LIMIT_TIMEOUT_CHECK_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 1_000, description: 'interval of the look at limit entries past their limit_timeout' }),
  PROJECTX_RESTING_OWN_LEGS: Type.Boolean({ default: false, description: 'take limit and stop entries on ProjectX accounts that refuse brackets, the connector placing the stop and target at each fill and cancelling the entry\'s rest once they close the trade (off: market entries only there, resting ones refused with why; off by default while the findings in docs/decisions/projectx-adapter.md are open)' }),
  /**
   * Several targets, breakeven after TP1 and trailing stops carried out (docs/decisions/targets-breakeven.md).
   * Off until the stop and the targets are held together at the broker: with separate orders, a target
   * filled while the connector is away leaves the stop oversized (stop 29 review). Off, such entries are
   * refused on the record, saying why.
   */
  EXIT_PLANS_ENABLED: Type.Boolean({ default: false, description: 'carry out several targets, breakeven and trailing stops (off: such entries are refused, saying why)' }),
  TRAILING_STOP_CHECK_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 1_000, description: 'interval of the look at the market for trailing stops' }),
  TRAILING_STOP_MIN_GAP_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 1_000, description: "least time between two moves of one trade's trailing stop (the broker's rate limits)" }),
})

export type Config = Static<typeof ConfigSchema>
