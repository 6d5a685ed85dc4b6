import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely'
import type { AlertRecordStatus, BrokerEnvironment, BrokerName, ClosePart, OrderWord, Role as UserRole, SettingKey, Side, TradeResult, TradeStatus } from '@signals/contracts'

/** Timestamps come back as Date; inserts and updates may pass a Date or an SQL expression. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
/** NUMERIC is exact: it is read as a decimal string and never turned into a float on the way. */
type Decimal = ColumnType<string, string | number, string | number>
type NullableDecimal = ColumnType<string | null, string | number | null | undefined, string | number | null>
/** JSONB in, parsed JSON out. */
type Json<T = unknown> = ColumnType<T, string, string>

// The shared words come from @signals/contracts (one source); the column types below use them.
export type { AlertRecordStatus, BrokerEnvironment, BrokerName, Role as UserRole, SettingKey, Side, TradeResult, TradeStatus } from '@signals/contracts'
type NullableInteger = ColumnType<number | null, number | null | undefined, number | null>
/** BIGINT ids from the broker (read as numbers, as every bigint here). */
type BrokerId = ColumnType<number | null, number | null | undefined, number | null>

export interface UsersTable {
  user_id: string
  email: string
  name: string | null
  picture: string | null
  approved: ColumnType<boolean, boolean | undefined, boolean>
  role: ColumnType<UserRole, UserRole | undefined, UserRole>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface BannedEmailsTable {
  id: Generated<number>
  email: string
  reason: string | null
  created_at: Timestamp
  /** The banned account's OpenID Connect subject (users.user_id) when known: a changed e-mail stays banned. */
  sub: ColumnType<string | null, string | null | undefined, string | null>
}

export interface TradingSettingsTable {
  user_id: string
  /**
   * `live_trading` is the primary account's switches (`broker_accounts`); its row here is written from them by a
   * trigger (the spec's table keeps it), never by our code: inserts and updates name `risk_strategy` only.
   */
  setting_key: ColumnType<SettingKey, 'risk_strategy', 'risk_strategy'>
  setting_value: Json
  updated_at: Timestamp
}

/**
 * A broker login (issue 22, docs/decisions/accounts.md): the credentials one broker session opens, sealed for
 * (user, broker, environment, `bound_account_ref`). One login may serve several accounts. The primary account's
 * login is the trader's broker credentials (the spec's `/api/broker-credentials`, the connector's feed login).
 */
export interface BrokerLoginsTable {
  id: Generated<string>
  user_id: string
  broker: BrokerName
  environment: BrokerEnvironment
  /** The broker account id the secret was sealed with: the fourth part of its AES-GCM binding. */
  bound_account_ref: string
  /** Id of the key that sealed the secret, so keys can rotate (`credentials:reseal`). */
  key_id: string
  /** AES-256-GCM: 12-byte IV, 16-byte tag, ciphertext of the JSON secret fields. */
  secret_iv: Buffer
  secret_tag: Buffer
  secret_ciphertext: Buffer
  created_at: Timestamp
  updated_at: Timestamp
}

/**
 * A trader's broker account: one broker account id under a login, with its own switches. Each trader has one
 * primary (the spec's single-account routes address it; its switches are the spec's live_trading setting).
 * Until the connector trades by account only the primary may be live (a check constraint).
 */
export interface BrokerAccountsTable {
  id: Generated<string>
  user_id: string
  /** Null only for a primary account whose trader has saved no credentials. */
  login_id: string | null
  /** The broker's account id (Tradovate's account name or id, as the trader typed it); null with login_id. */
  broker_account_ref: string | null
  name: string
  is_primary: ColumnType<boolean, boolean | undefined, boolean>
  live_trading: ColumnType<boolean, boolean | undefined, boolean>
  auto_place: ColumnType<boolean, boolean | undefined, boolean>
  /** The primary's: when its switches (the spec's `live_trading` setting) were last saved; the setting's `updatedAt`. */
  switches_updated_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  created_at: Timestamp
  updated_at: Timestamp
}

/** An account's risk-engine configuration; the primary's is the one the spec's `/api/risk-engine/config` addresses. */
export interface AccountRiskConfigsTable {
  account_id: string
  user_id: string
  config: Json
  /** The prop-firm preset the configuration was last filled from (id, firm, plan, the values it set), or null. */
  preset: ColumnType<unknown, string | null | undefined, string | null>
  updated_at: Timestamp
}

export interface AlertsTable {
  id: Generated<number>
  /** The ingest-assigned id of the alert; one row per (alert_id, user_id). */
  alert_id: string
  /** The trader this record belongs to; NULL for a test alert, which belongs to no live trader. */
  user_id: string | null
  /** The user_id the payload named (DESIGN decision 6). */
  owner_user_id: string | null
  /** The trader's broker account the record is for (their primary while only the primary trades); null for a test alert, or once the account was removed. */
  account_id: ColumnType<string | null, string | null | undefined, string | null>
  /** The signal source the alert came through; null for the spec's `POST /webhook/alert` (issue 22). */
  source_id: ColumnType<string | null, string | null | undefined, string | null>
  symbol: string | null
  /** Contract root (NQ for NQ1!, NQZ6, CME_MINI:NQ1!), when known. */
  root: string | null
  action: Side | null
  entry_price: NullableDecimal
  sl: NullableDecimal
  tp: NullableDecimal
  indicator: string | null
  leverage: NullableDecimal
  raw_data: Json
  is_test: ColumnType<boolean, boolean | undefined, boolean>
  status: ColumnType<AlertRecordStatus, AlertRecordStatus | undefined, AlertRecordStatus>
  received_at: Timestamp
  created_at: Timestamp
  /** Why the record ended as it did (refused, failed, not placed), in words for the trader. */
  reason: string | null
  /** Machine-readable refusal (the risk engine's RefusalCode, or the flow's own). */
  refusal_code: string | null
  /** The quantity the alert itself carried, if any. */
  alert_quantity: NullableDecimal
  /** The subscription's multiplier of `alert_quantity` when it sizes the source's entries so (issue 22); null: the account's risk mode. */
  size_multiplier: NullableDecimal
  /** An entry that changes the open position (`reverse`, `add`; issue 24), or null. */
  order_word: ColumnType<OrderWord | null, OrderWord | null | undefined, OrderWord | null>
  /** Contracts ordered (sized by the risk engine). */
  order_quantity: NullableInteger
  /** Our tag on the entry order (`sig-<id>`); legs carry `.sl` / `.tp`. */
  order_tag: string | null
  /** The dated contract ordered (`MNQZ6`). */
  contract: string | null
  entry_order_id: BrokerId
  stop_order_id: BrokerId
  target_order_id: BrokerId
  /**
   * Sends attempted, each committed before the order left. A `placing` record's last send may have reached
   * the broker: it is only ever reconciled by its tag, never sent again (issue 20).
   */
  send_attempts: ColumnType<number, number | undefined, number>
  /** When the last send was marked (Postgres' clock): the outcome grace runs from here. */
  sent_at: NullableTimestamp
  placed_at: NullableTimestamp
  /** When the outcome (placed, refused, failed, not placed) was written. */
  decided_at: NullableTimestamp
  /** An alert managing what is at the broker (contracts OrderInstruction), or null for an entry. */
  instruction: ColumnType<unknown, string | null | undefined, string | null>
  /** The entry order's type, trigger and time in force (contracts EntryOrder), or null for a market or limit entry. */
  entry_order: ColumnType<unknown, string | null | undefined, string | null>
  /** Where the sender's strategy says its position was before the entry and is after it (contracts StrategyPosition), or null. */
  strategy_position: ColumnType<unknown, string | null | undefined, string | null>
  /** Several targets and the move to breakeven after TP1 (contracts ExitPlan), or null: one target as before. */
  exit_plan: ColumnType<unknown, string | null | undefined, string | null>
  /** The stop trails the market (contracts TrailingStop), or null. */
  trailing_stop: ColumnType<unknown, string | null | undefined, string | null>
}

export interface TradesTable {
  id: Generated<number>
  user_id: string
  /** The trader's broker account it was traded on (its alert record's); null once the account was removed. */
  account_id: ColumnType<string | null, string | null | undefined, string | null>
  /** The alert record that opened it, when an alert did. */
  alert_record_id: number | null
  symbol: string
  root: string | null
  side: Side
  quantity: Decimal
  entry_price: Decimal
  exit_price: NullableDecimal
  status: ColumnType<TradeStatus, TradeStatus | undefined, TradeStatus>
  result: TradeResult | null
  pnl: NullableDecimal
  /** The alert id of the result alert that closed it: a redelivery cannot close it again. */
  close_alert_id: string | null
  opened_at: Timestamp
  closed_at: NullableTimestamp
  /** The dated contract traded (`MNQZ6`), when opened from a broker fill. */
  contract: string | null
  broker_contract_id: BrokerId
  /** Where the broker ids below live (each broker and environment numbers its own); null for a trade without them. */
  broker: BrokerName | null
  environment: BrokerEnvironment | null
  broker_account_id: BrokerId
  /** Unique per (broker, environment, broker_account_id), never across them. */
  entry_order_id: BrokerId
  stop_order_id: BrokerId
  target_order_id: BrokerId
  /** When a lone stop was claimed for contracts a refused target pair left without one (sent once). */
  lone_stop_claimed_at: NullableTimestamp
  /** Broker fill ids already counted into quantity and entry price (a replayed fill counts once; bigint[] reads as text). */
  entry_fill_ids: ColumnType<string[], string[] | undefined, string[]>
  /** The broker's exit fill price (weighted over the fills that closed it); for a broker-backed trade also its exit_price. */
  broker_exit_price: NullableDecimal
  broker_exit_fill_id: BrokerId
  /** An exit alert asked to close it; the flatten is on its way (the trade stays open until the broker's fill). */
  exit_requested_at: NullableTimestamp
  /** The result the closing fill gives it (the exit alert's). */
  exit_result: TradeResult | null
  /** The exit alert's price: the signal's exit, kept beside the broker's fill. */
  signal_exit_price: NullableDecimal
  /** Where the exit stands, in words for the trader (why it waits, or what the broker said). */
  exit_note: string | null
  /** A closed part of a trade (a fill of part of its quantity): the trade it came from. */
  parent_trade_id: BrokerId
  /** The order whose fills closed this row. */
  exit_order_id: BrokerId
  /** Why the platform closed it when no signal did (the risk watchdog's sentence), kept once closed. */
  close_reason: ColumnType<string | null, string | null | undefined, string | null>
}

/** Each broker fill that closed (part of) a trade, by quantity (a replayed fill is allocated once). */
export interface TradeExitFillsTable {
  fill_id: number
  trade_id: number
  user_id: string
  order_id: number
  quantity: number
  price: Decimal
  filled_at: Timestamp
}

/** A session halted by the risk watchdog (open loss through the hard daily loss limit or the floor). */
export interface RiskHaltsTable {
  id: Generated<number>
  user_id: string
  code: 'daily_loss_limit_hard' | 'drawdown_floor'
  /** What was breached, with the figures: a clause the halted refusal quotes. */
  reason: string
  open_pnl: Decimal
  halted_at: ColumnType<Date, Date | string | undefined, never>
}

/** The highest equity (balance plus open pnl) the risk watchdog saw: an intraday_unrealized floor trails it. */
export interface EquityPeaksTable {
  user_id: string
  peak: Decimal
  reached_at: ColumnType<Date, Date | string | undefined, Date | string>
}

/** A flatten to carry out at the broker for one (user, contract): durable until done. */
export interface FlattenRequestsTable {
  id: Generated<number>
  user_id: string
  /** The dated contract (`MNQZ6`). */
  contract: string
  broker_contract_id: BrokerId
  /** The side to close; null: whichever the account holds. */
  side: Side | null
  alert_id: string | null
  result: TradeResult
  signal_exit_price: NullableDecimal
  /** Entries received up to this time are the ones it closes. */
  signal_at: Timestamp
  requested_at: Timestamp
  attempts: ColumnType<number, number | undefined, number>
  /** Why it waits (no session, the broker's wait or refusal). */
  reason: string | null
  next_attempt_at: Timestamp
  done_at: NullableTimestamp
  /** What was done at the broker. */
  outcome: string | null
  /** A partial close ({quantity, percent, remaining}, one set; issue 24); null closes the whole position. */
  close_part: ColumnType<ClosePart | null, string | null | undefined, string | null>
  /** When a partial close's order was about to leave: it is never sent again, only looked for by its tag. */
  part_sent_at: NullableTimestamp
  /** The close's orders (broker ids) ended short of their fill whose cut brackets were put back: each once. */
  put_back_orders: ColumnType<string[], string[] | undefined, string[]>
  /** The exit reaches one source's trades (`source_id`; null: the spec route's); false: every source's. */
  source_scoped: ColumnType<boolean, boolean | undefined, boolean>
  source_id: string | null
}

export interface IntakeLogTable {
  id: Generated<number>
  /** Unique per webhook request; the consumer inserts ON CONFLICT DO NOTHING. */
  intake_id: string
  received_at: Timestamp
  source: string
  content_type: string | null
  remote_address: string | null
  raw_body: string
  outcome: string
  status_code: number
  reason: string | null
  alert_id: string | null
  kind: string | null
  created_at: Timestamp
  /** The user the payload named, when it could be read (issue 22: a trader sees their own intake). */
  user_id: string | null
  /** Passed the webhook secret check (or there was none): only such a refusal may be replayed. */
  authenticated: ColumnType<boolean, boolean | undefined, boolean>
  /** raw_body holds only the first INGEST_REFUSED_BODY_BYTES of a refused request: never replayed. */
  body_truncated: ColumnType<boolean, boolean | undefined, boolean>
  /** The webhook request span's W3C traceparent at ingest while tracing was on: a replay links it. */
  traceparent: ColumnType<string | null, string | null | undefined, string | null>
}

export interface AdminAuditLogTable {
  id: Generated<number>
  actor_user_id: string
  action: string
  target: string
  reason: string | null
  created_at: Timestamp
}

/** A use of the trader's kill switch and what the broker did (issue 25). */
export interface KillSwitchEventsTable {
  id: Generated<number>
  user_id: string
  requested_at: ColumnType<Date, Date | string | undefined, never>
  outcome: ColumnType<'pending' | 'done' | 'incomplete' | 'no_session', 'pending' | undefined, 'done' | 'incomplete' | 'no_session'>
  detail: string | null
  finished_at: NullableTimestamp
}

export type FeedCommandAction = 'start' | 'stop' | 'restart'

/** Outbox of feed commands: written with the change that causes it, published after commit (settings service). */
export interface FeedCommandsTable {
  id: Generated<number>
  /** The FeedCommandV1 commandId and bus message id, so a re-publish is dropped by the stream. */
  command_id: string
  user_id: string
  action: FeedCommandAction
  reason: string
  requested_at: Timestamp
  /** Set once JetStream acknowledged it; NULL means still to be sent. */
  published_at: NullableTimestamp
}

/**
 * A broker event the connector could not apply (e.g. a fill whose trade a constraint refuses), kept with
 * the reason for support instead of stopping the trader's session. One row per event, counted per replay.
 */
export interface BrokerEventsSetAsideTable {
  id: Generated<number>
  user_id: string
  broker: BrokerName
  environment: BrokerEnvironment
  broker_account_id: number
  entity_type: string
  entity_id: number
  order_id: number | null
  /** The event as the connector received it (no secrets: ids, prices, quantities). */
  event: Json
  reason: string
  first_seen_at: Timestamp
  last_seen_at: Timestamp
  times: ColumnType<number, number | undefined, number>
}

/** What a reconciliation pass found the broker and our trades disagreeing on, and what it did about it. */
export type DiscrepancyKind = 'untracked_position' | 'broker_flat' | 'quantity_differs' | 'stray_order' | 'stops_differ'

/**
 * A difference between the broker's position or working orders and our open trades and records, per account
 * and contract, shown to the trader with what was done and why. Open (resolved_at null) while it stands.
 */
export interface PositionDiscrepanciesTable {
  id: Generated<number>
  user_id: string
  broker: BrokerName
  environment: BrokerEnvironment
  broker_account_id: number
  broker_contract_id: number
  /** The dated contract (`MNQZ6`) when one of our trades names it; null for a contract we never traded. */
  contract: string | null
  kind: DiscrepancyKind
  /** Signed: positive long, negative short. */
  broker_qty: number
  /** Our open trades' signed quantity in the contract. */
  our_qty: number
  /** The broker order concerned (a stray order cancelled). */
  order_id: number | null
  /** What was done, in words for the trader. */
  action: string
  reason: string
  found_at: Timestamp
  last_seen_at: Timestamp
  resolved_at: NullableTimestamp
}

export type NotificationChannelKind = 'email' | 'telegram' | 'discord' | 'webhook'

/** A trader's notification channel: shown settings in the clear, its secret sealed (AES-256-GCM). */
export interface NotificationChannelsTable {
  id: Generated<string>
  user_id: string
  kind: NotificationChannelKind
  name: string
  enabled: ColumnType<boolean, boolean | undefined, boolean>
  /** Event filter names (NotificationEventKind). */
  events: string[]
  settings: Json
  key_id: string
  secret_iv: Buffer
  secret_tag: Buffer
  secret_ciphertext: Buffer
  last_sent_at: NullableTimestamp
  last_failed_at: NullableTimestamp
  last_error: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** The administrator's news calendar: entries are refused in [at - minutes_before, at + minutes_after] (session rules). */
export interface NewsEventsTable {
  id: Generated<number>
  name: string
  at: Timestamp
  minutes_before: number
  minutes_after: number
  created_by: string | null
  created_at: Timestamp
}

/** A user's daily flatten, claimed once per CME trading day (session rules). */
export interface DailyFlattensTable {
  user_id: string
  trading_day: string
  flatten_at: string
  claimed_at: Timestamp
  done_at: NullableTimestamp
}

/** A user's flatten at the start of a news event's blackout (flattenBeforeNews), claimed once per event. */
export interface NewsFlattensTable {
  user_id: string
  news_event_id: number
  claimed_at: Timestamp
  done_at: NullableTimestamp
}

/** A limit entry's deadline (`limit_timeout`): cancelled when not filled by `due_at`, claimed once (issue 24 item 6). */
export interface LimitEntryTimeoutsTable {
  record_id: number
  user_id: string
  /** The alert's `limit_timeout`, else the account's `entryOrders.limitTimeoutSeconds`. */
  timeout_seconds: number
  due_at: Timestamp
  claimed_at: NullableTimestamp
  done_at: NullableTimestamp
  outcome: string | null
  cancelled: Generated<boolean>
  /** What the deadline does, fixed when the row is written: the alert's `limit_timeout_action`, else the account's `entryOrders.onLimitTimeout`. */
  on_timeout: Generated<'cancel' | 'market'>
  /** A conversion's cancel was asked (written before it goes out): an entry found cancelled then was cancelled by us. */
  cancel_asked_at: NullableTimestamp
  /** The market order for the remainder, written before it is sent: looked for by this tag, never sent twice. */
  market_tag: string | null
  market_quantity: number | null
}

/** One target order of a record with several (issue 24 item 4): written before it is sent, so it is sent once. */
export interface TradeTargetsTable {
  record_id: number
  /** 1 for TP1, up to 3. */
  level: number
  price: Decimal
  /** The contracts it was placed for (after sizing, scaling and merging). */
  quantity: number
  order_id: BrokerId
  /** The stop paired with it at the broker (OCO, tag `.slN`), once answered or found by tag. */
  stop_order_id: BrokerId
  sent_at: Timestamp
  /** Why it is not working as planned (the broker refused, outcome unknown), or null. */
  outcome: string | null
}

/** A gap between a trade's stops and what the broker holds of it, claimed before its stop is sent (sent once per gap). */
export interface StopGapClaimsTable {
  trade_id: number
  /** What was seen: the quantity held and the trade's working stops at the broker. */
  gap_key: string
  /** The contracts the stop was sent for. */
  quantity: number
  claimed_at: Timestamp
}

/**
 * The stop and target the connector places itself for an entry sent without brackets (a ProjectX account that
 * refuses them), written before the entry is sent: any instance holding the session covers its fills.
 */
export interface OwnLegPlansTable {
  /** The entry's seam tag (`sig-<id>`, a remainder's `sig-<id>.m`); its legs are `<tag>.sl` / `<tag>.tp`. */
  tag: string
  record_id: number
  /** ProjectX's account id. */
  broker_account_id: number
  /** ProjectX's text contract id. */
  contract_id: string
  /** OrderSide of the legs (the entry's opposite): 0 buy, 1 sell. */
  side: number
  /** The entry's contracts filled, each fill counted once (own_leg_fills). */
  filled: ColumnType<number, number | undefined, number>
  created_at: Timestamp
  /** Written before the entry's working rest is cancelled: its legs closed the trade (or were found done as it filled again). */
  closed_at: NullableTimestamp
  /** The entry's contracts the legs stood for when it was closed: a fill past them is late and closed at the market. */
  closed_filled: number | null
  /** Late contracts closed at the market by us, claimed before each closing order goes. */
  flattened: ColumnType<number, number | undefined, number>
}

/** One leg of an own-legs plan: `sl` (Stop) or `tp` (Limit). */
export interface OwnLegsTable {
  tag: string
  leg: 'sl' | 'tp'
  price: Decimal
  order_id: BrokerId
  /** The entry's filled contracts the leg was placed or grown for. */
  covered: ColumnType<number, number | undefined, number>
  /** Written before its Order/place goes: sent once; a lost answer is looked for by the leg's tag. */
  sent_at: NullableTimestamp
  /** Sent once more: its first answer was lost and ProjectX did not list it (a used customTag is refused: never two). */
  resent_at: NullableTimestamp
  /** ProjectX refused it (not sent again), or null. */
  outcome: string | null
}

/** An entry fill counted into its plan's `filled`, once (by ProjectX's trade id). */
export interface OwnLegFillsTable {
  tag: string
  trade_id: number
  quantity: number
  counted_at: Timestamp
}

/** A late fill's close at the market (own-legs.ts), kept until its untagged order is taken for it (`order_id`). */
export interface OwnLegLateClosesTable {
  tag: string
  /** Our clock, just before the close went: the order taken for it was created from then on (a few seconds' skew allowed). */
  sent_at: Timestamp
  size: number
  order_id: BrokerId
}

/** Outbox of notification events, written by triggers on alerts, trades and risk_halts; published by settings. */
export interface NotificationEventsTable {
  id: Generated<number>
  user_id: string
  kind: string
  event_key: string
  details: Json
  occurred_at: Timestamp
  published_at: NullableTimestamp
}

/** One event to one channel: pending until sent, or failed after the last attempt. */
export interface NotificationDeliveriesTable {
  id: Generated<number>
  channel_id: string
  user_id: string
  event_id: string
  kind: string
  title: string
  text: string
  occurred_at: Timestamp
  status: ColumnType<'pending' | 'sent' | 'failed', 'pending' | 'sent' | 'failed' | undefined, 'pending' | 'sent' | 'failed'>
  attempts: ColumnType<number, number | undefined, number>
  next_attempt_at: Timestamp
  last_error: string | null
  created_at: Timestamp
  sent_at: NullableTimestamp
}

/** A named webhook URL `/webhook/s/<token>` (issue 22); only the token's SHA-256 (hex) is stored. */
export interface SignalSourcesTable {
  id: Generated<string>
  /** The trader who made it; null for an operator source (made by an administrator). */
  owner_user_id: string | null
  name: string
  token_hash: string
  created_at: Timestamp
  rotated_at: NullableTimestamp
  /** Deleted, or its owner banned: the URL no longer works. */
  revoked_at: NullableTimestamp
}

export type SignalSourceSizeRule = 'account' | 'multiplier'

/** A trader's subscription to a source (per trader until a trader has several accounts). */
export interface SignalSourceSubscriptionsTable {
  source_id: string
  user_id: string
  size_rule: SignalSourceSizeRule
  /** The factor applied to the alert's quantity when `size_rule` is `multiplier`; null otherwise. */
  multiplier: NullableDecimal
  created_at: Timestamp
}

/**
 * A trader who opted out of the default operator source (the spec's `POST /webhook/alert`): no row, subscribed.
 */
export interface DefaultSourceOptOutsTable {
  user_id: string
  created_at: Timestamp
}

/** Token hashes whose SIGNAL_SOURCES bucket entry must be recomputed (written by a trigger, relayed by settings). */
export interface SignalSourceKeyChangesTable {
  id: Generated<number>
  token_hash: string
  created_at: Timestamp
}

export interface Database {
  users: UsersTable
  banned_emails: BannedEmailsTable
  trading_settings: TradingSettingsTable
  // The spec's `broker_credentials` is not here: a copy of each primary's login written by triggers
  // (docs/decisions/accounts.md, "Built: the login mirror dropped"), which no code of ours reads or writes.
  alerts: AlertsTable
  trades: TradesTable
  trade_exit_fills: TradeExitFillsTable
  flatten_requests: FlattenRequestsTable
  risk_halts: RiskHaltsTable
  equity_peaks: EquityPeaksTable
  intake_log: IntakeLogTable
  admin_audit_log: AdminAuditLogTable
  kill_switch_events: KillSwitchEventsTable
  feed_commands: FeedCommandsTable
  broker_events_set_aside: BrokerEventsSetAsideTable
  position_discrepancies: PositionDiscrepanciesTable
  notification_channels: NotificationChannelsTable
  notification_events: NotificationEventsTable
  notification_deliveries: NotificationDeliveriesTable
  news_events: NewsEventsTable
  daily_flattens: DailyFlattensTable
  news_flattens: NewsFlattensTable
  limit_entry_timeouts: LimitEntryTimeoutsTable
  signal_sources: SignalSourcesTable
  signal_source_subscriptions: SignalSourceSubscriptionsTable
  signal_source_key_changes: SignalSourceKeyChangesTable
  default_source_opt_outs: DefaultSourceOptOutsTable
  broker_logins: BrokerLoginsTable
  broker_accounts: BrokerAccountsTable
  account_risk_configs: AccountRiskConfigsTable
  trade_targets: TradeTargetsTable
  stop_gap_claims: StopGapClaimsTable
  own_leg_plans: OwnLegPlansTable
  own_legs: OwnLegsTable
  own_leg_fills: OwnLegFillsTable
  own_leg_late_closes: OwnLegLateClosesTable
}

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
export type BannedEmail = Selectable<BannedEmailsTable>
export type TradingSetting = Selectable<TradingSettingsTable>
export type AlertRecord = Selectable<AlertsTable>
export type NewAlertRecord = Insertable<AlertsTable>
export type Trade = Selectable<TradesTable>
export type NewTrade = Insertable<TradesTable>
export type IntakeLogEntry = Selectable<IntakeLogTable>
export type NewIntakeLogEntry = Insertable<IntakeLogTable>
export type AdminAuditEntry = Selectable<AdminAuditLogTable>
export type NewsEventRow = Selectable<NewsEventsTable>
export type FeedCommandRow = Selectable<FeedCommandsTable>
export type NotificationChannelRow = Selectable<NotificationChannelsTable>
export type NotificationDeliveryRow = Selectable<NotificationDeliveriesTable>
export type SignalSourceRow = Selectable<SignalSourcesTable>
export type SignalSourceSubscriptionRow = Selectable<SignalSourceSubscriptionsTable>
export type BrokerLoginRow = Selectable<BrokerLoginsTable>
export type BrokerAccountRow = Selectable<BrokerAccountsTable>

/**
 * Columns of one table as a query reads them: the row type of a statement kept in raw SQL (`sql<RowOf<...>>`),
 * so a renamed or retyped column breaks the build there as it does in the query builder.
 */
export type RowOf<Table extends keyof Database, Column extends keyof Selectable<Database[Table]>> = Pick<Selectable<Database[Table]>, Column>
/** One column's type as a query reads it. */
export type ColumnOf<Table extends keyof Database, Column extends keyof Selectable<Database[Table]>> = Selectable<Database[Table]>[Column]
