import Type, { type Static, type TSchema } from 'typebox'
import { LiteralUnion } from '@signals/contracts'
import { SessionRulesArea, type SessionRules } from './session-rules-config.ts'
import { PositionChangesArea, type PositionChanges } from './position-changes-config.ts'
import { EntryOrdersArea, type EntryOrders } from './entry-orders-config.ts'

/**
 * The risk-engine configuration: one nested object per area of the spec's list, every field bounded and
 * defaulted, no field beyond these (additionalProperties false at every level). docs/risk-engine-config.md
 * is the same table in prose. Money is in account currency (USD); percentages are 0-100.
 */
const Literals = <const T extends readonly string[]>(values: T, description: string, fallback: T[number]) =>
  LiteralUnion(values, { description, default: fallback })
const Money = (minimum: number, maximum: number, fallback: number, description: string) =>
  Type.Number({ minimum, maximum, default: fallback, description })
const Percent = (minimum: number, maximum: number, fallback: number, description: string) =>
  Type.Number({ minimum, maximum, default: fallback, description })
const Count = (minimum: number, maximum: number, fallback: number, description: string) =>
  Type.Integer({ minimum, maximum, default: fallback, description })
const Area = <P extends Record<string, TSchema>>(properties: P, description: string) =>
  Type.Object(properties, { additionalProperties: false, description })

export const TRAILING_MODES = ['intraday_unrealized', 'intraday_realized', 'end_of_day'] as const
export const RISK_MODES = ['fixed_fraction', 'anti_martingale_pyramiding', 'fixed_contracts', 'alert_quantity'] as const

export const AccountArea = Area(
  { startingBalance: Money(1_000, 10_000_000, 50_000, 'balance the account (or evaluation) starts with') },
  'starting balance',
)

export const TrailingDrawdownArea = Area(
  {
    amount: Money(100, 1_000_000, 2_000, 'distance of the drawdown floor below the highest balance reached; must be below the starting balance'),
    mode: Literals(
      TRAILING_MODES,
      'what the floor trails: intraday_unrealized = peak balance including open profit, during the day; intraday_realized = peak balance from closed trades, during the day; end_of_day = the balance at each session close',
      'end_of_day',
    ),
    stopTrailingAtBalance: Type.Union([Type.Number({ minimum: 0, maximum: 20_000_000 }), Type.Null()], {
      default: null,
      description: 'once the floor reaches this balance it stops rising (commonly starting balance + 100); null = it never stops; at least startingBalance - amount',
    }),
  },
  'trailing drawdown limit',
)

export const DailyLossLimitArea = Area(
  {
    enabled: Type.Boolean({ default: true, description: 'whether a daily loss limit applies' }),
    amount: Money(50, 1_000_000, 1_000, 'loss in one session (closed and open) that triggers the limit; at most the trailing drawdown amount'),
    type: Literals(['hard', 'soft'] as const, 'hard = flatten every position and stop for the session; soft = refuse new entries, let open trades run to their exits', 'soft'),
  },
  'daily loss limit',
)

export const LimitsArea = Area(
  {
    maxRiskPerTradePercent: Percent(0.01, 10, 1, 'largest loss one trade may risk at its stop, as a percentage of the current balance'),
    maxOpenTrades: Count(1, 50, 3, 'trades open at the same time, at most'),
    safetyBufferPercent: Percent(0, 50, 10, 'share of the room left above the drawdown floor that sizing never uses'),
    maxContractsPerOrder: Count(1, 100, 5, "contracts in one order, at most, in every risk mode (the platform ceiling and the risk strategy's maximum contracts may be lower)"),
    minStopTicks: Count(1, 1_000, 4, 'a stop closer than this many ticks to the price the entry fills at is refused'),
    maxEntryDistanceTicks: Count(1, 100_000, 40, "a market entry is refused when the broker's price is more than this many ticks from the alert's entry price"),
    marginPercent: Percent(0.1, 100, 2, 'margin one contract is taken to need, as a percentage of its value at the entry price (price x point value); the open trades and the entry together may not need more than the equity'),
  },
  'per-trade risk, open trades, safety buffer and order bounds',
)

export const RiskModeArea = Area(
  {
    mode: Literals(
      RISK_MODES,
      'fixed_fraction = size from maxRiskPerTradePercent; anti_martingale_pyramiding = size steps up after wins and down after losses (see antiMartingale); fixed_contracts = always fixedContracts; alert_quantity = the quantity the alert sends, at most fixedContracts and never beyond the risk budget when the alert has a stop',
      'fixed_fraction',
    ),
    fixedContracts: Count(1, 100, 1, 'contracts per trade in fixed_contracts mode; the most taken from one alert in alert_quantity mode'),
  },
  'risk mode',
)

export const ConsistencyRuleArea = Area(
  {
    enabled: Type.Boolean({ default: false, description: 'whether the consistency rule applies' }),
    maxBestDayPercent: Percent(10, 100, 30, "the best day's profit may be at most this share of the total profit"),
  },
  'consistency rule',
)

export const PayoutSecurityArea = Area(
  {
    enabled: Type.Boolean({ default: false, description: 'whether payouts are held back until the balance is high enough' }),
    minBalanceAboveStart: Money(0, 1_000_000, 2_100, 'balance above the starting balance required before a payout'),
  },
  'payout security',
)

export const VerificationArea = Area(
  {
    phase: Literals(['evaluation', 'funded'] as const, 'evaluation = working towards the profit target; funded = passed', 'evaluation'),
    profitTarget: Money(0, 1_000_000, 3_000, 'profit over the starting balance that passes the evaluation'),
    minTradingDays: Count(0, 365, 5, 'distinct trading days needed before the evaluation can pass'),
  },
  'verification',
)

export const AntiMartingaleArea = Area(
  {
    baseContracts: Count(1, 100, 1, 'contracts per trade at step zero'),
    maxContracts: Count(1, 100, 5, 'contracts per trade never exceed this; at least baseContracts'),
    winsToStepUp: Count(1, 20, 2, 'consecutive wins before the size steps up'),
    lossesToStepDown: Count(1, 20, 1, 'consecutive losses before the size steps down'),
    stepContracts: Count(1, 20, 1, 'contracts added or removed per step'),
    pyramidLevels: Count(0, 10, 2, 'additional entries allowed on a winning position (0 = no pyramiding)'),
  },
  'anti-martingale steps (used in anti_martingale_pyramiding mode)',
)

export const RiskEngineConfig = Type.Object(
  {
    account: AccountArea,
    trailingDrawdown: TrailingDrawdownArea,
    dailyLossLimit: DailyLossLimitArea,
    limits: LimitsArea,
    riskMode: RiskModeArea,
    consistencyRule: ConsistencyRuleArea,
    payoutSecurity: PayoutSecurityArea,
    verification: VerificationArea,
    antiMartingale: AntiMartingaleArea,
    /** Not in the spec's list; optional on input so older clients' complete objects still save (`withSessionRules`). */
    sessionRules: Type.Optional(SessionRulesArea),
    /** Issue 24: reversals and pyramiding (position-changes-config.ts); optional on input like sessionRules. */
    positionChanges: Type.Optional(PositionChangesArea),
    /** Issue 24 item 6: a limit entry's default timeout (entry-orders-config.ts); optional on input like sessionRules. */
    entryOrders: Type.Optional(EntryOrdersArea),
  },
  { additionalProperties: false, 'x-error-prefix': 'Invalid risk-engine configuration' },
)
/** A configuration as saved and used: every area present (the session rules filled with their defaults when not sent). */
export type RiskEngineConfig = Static<typeof RiskEngineConfig> & { sessionRules: SessionRules; positionChanges: PositionChanges; entryOrders: EntryOrders }
/** A configuration as a client may send it (the session rules may be left out). */
export type RiskEngineConfigInput = Static<typeof RiskEngineConfig>

export const RISK_AREAS = Object.keys(RiskEngineConfig.properties) as (keyof RiskEngineConfig)[]

/** Every field's `default`, gathered from the schema so the two cannot drift apart. */
export const DEFAULT_RISK_ENGINE_CONFIG: RiskEngineConfig = Object.fromEntries(
  RISK_AREAS.map((area) => [
    area,
    Object.fromEntries(
      Object.entries((RiskEngineConfig.properties[area] as unknown as { properties: Record<string, { default: unknown }> }).properties).map(
        ([field, schema]) => [field, schema.default],
      ),
    ),
  ]),
) as RiskEngineConfig

/** A sent configuration with the session rules' defaults where none were sent. */
export function withSessionRules(input: RiskEngineConfigInput): RiskEngineConfig {
  return {
    ...input,
    sessionRules: input.sessionRules ?? DEFAULT_RISK_ENGINE_CONFIG.sessionRules,
    positionChanges: input.positionChanges ?? DEFAULT_RISK_ENGINE_CONFIG.positionChanges,
    entryOrders: input.entryOrders ?? DEFAULT_RISK_ENGINE_CONFIG.entryOrders,
  }
}

/** Rules between fields, each naming the field at fault; null when the configuration is consistent. */
export function crossFieldProblem(config: RiskEngineConfigInput): string | null {
  const { account, trailingDrawdown, dailyLossLimit, antiMartingale } = config
  if (trailingDrawdown.amount >= account.startingBalance) return 'trailingDrawdown.amount must be less than account.startingBalance'
  if (trailingDrawdown.stopTrailingAtBalance !== null && trailingDrawdown.stopTrailingAtBalance < account.startingBalance - trailingDrawdown.amount) {
    return 'trailingDrawdown.stopTrailingAtBalance must be at least account.startingBalance - trailingDrawdown.amount (the initial floor)'
  }
  if (dailyLossLimit.amount > trailingDrawdown.amount) return 'dailyLossLimit.amount must not exceed trailingDrawdown.amount'
  if (antiMartingale.maxContracts < antiMartingale.baseContracts) return 'antiMartingale.maxContracts must be at least antiMartingale.baseContracts'
  const windows = config.sessionRules?.tradingWindows ?? []
  const empty = windows.findIndex((window) => window.start === window.end)
  if (empty >= 0) return `sessionRules.tradingWindows[${empty}] must not start and end at the same time`
  if (config.sessionRules?.flattenBeforeNews && !config.sessionRules.newsBlackout) return 'sessionRules.flattenBeforeNews needs sessionRules.newsBlackout'
  return null
}
