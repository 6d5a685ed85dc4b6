import Type, { type Static, type TSchema } from 'typebox'
import { LiveTradingValue, type SettingKey } from '@signals/contracts'

export type { SettingKey } from '@signals/contracts'

/**
 * risk_strategy in the spec's legacy form. The client saves `type: "legacy"`; the service's default is
 * `"martingale"`; both are accepted, nothing else. Bounds keep a typo from becoming a position size.
 */
export const RiskStrategyValue = Type.Object(
  {
    enabled: Type.Boolean({ description: 'whether the legacy risk strategy sizes orders' }),
    type: Type.Union([Type.Literal('legacy'), Type.Literal('martingale')], {
      description: 'strategy form: "legacy" as the client saves it, "martingale" as the service defaults it',
    }),
    portfolioBalance: Type.Number({ minimum: 0, maximum: 1_000_000_000, description: 'account balance the sizing starts from (USD)' }),
    riskPercent: Type.Number({ exclusiveMinimum: 0, maximum: 100, description: 'share of the balance risked per trade, in percent' }),
    maxContracts: Type.Union([Type.Integer({ minimum: 1, maximum: 10_000 }), Type.Null()], {
      description: 'upper bound on contracts per order; null means no bound beyond the risk percentage',
    }),
  },
  { additionalProperties: false },
)
export type RiskStrategyValue = Static<typeof RiskStrategyValue>

export { LiveTradingValue }

/** What GET creates for a user who has none (documented in docs/decisions/settings.md). */
export const DEFAULT_SETTINGS: { risk_strategy: RiskStrategyValue; live_trading: LiveTradingValue } = {
  risk_strategy: { enabled: false, type: 'martingale', portfolioBalance: 50_000, riskPercent: 1, maxContracts: null },
  live_trading: { enabled: false, autoPlaceOrders: false },
}

const Timestamp = Type.String({ format: 'date-time' })

const SettingEntry = <T extends TSchema>(value: T) =>
  Type.Object({ value, updatedAt: Timestamp }, { additionalProperties: false })

export const SettingsByKey = Type.Object(
  {
    risk_strategy: SettingEntry(RiskStrategyValue),
    live_trading: SettingEntry(LiveTradingValue),
  },
  { additionalProperties: false, description: "the user's settings keyed by setting key" },
)
export type SettingsByKey = Static<typeof SettingsByKey>

export const TradingSettingsResponse = Type.Object({ success: Type.Literal(true), settings: SettingsByKey })

/** One branch of the save body: a key, and the value shaped for it; the prefixes word a 400 as the spec does. */
const SaveSettingOf = <K extends SettingKey, V extends TSchema>(settingKey: K, value: V) =>
  Type.Object(
    {
      settingKey: Type.Literal(settingKey, { 'x-error-prefix': 'Invalid setting key' }),
      settingValue: { ...value, 'x-error-prefix': `Invalid setting value for ${settingKey}` } as V,
    },
    { additionalProperties: false },
  )
const SaveRiskStrategy = SaveSettingOf('risk_strategy', RiskStrategyValue)
const SaveLiveTrading = SaveSettingOf('live_trading', LiveTradingValue)

/**
 * `POST /api/trading-settings`: the value's shape follows `settingKey`, a oneOf tagged by it, so a
 * wrong value is reported against its own key. Spec: an unknown key or a missing parameter is a 400
 * beginning "Invalid setting key".
 */
export const SaveSettingBody = Type.Unsafe<Static<typeof SaveRiskStrategy> | Static<typeof SaveLiveTrading>>({
  type: 'object',
  required: ['settingKey', 'settingValue'],
  discriminator: { propertyName: 'settingKey' },
  oneOf: [SaveRiskStrategy, SaveLiveTrading],
  'x-error-prefix': 'Invalid setting key or missing parameters',
})

const SavedSetting = Type.Object(
  {
    settingKey: Type.Union([Type.Literal('risk_strategy'), Type.Literal('live_trading')]),
    value: Type.Union([RiskStrategyValue, LiveTradingValue]),
    updatedAt: Timestamp,
  },
  { additionalProperties: false },
)

export const FeedCommandOutcome = Type.Object(
  {
    action: Type.Union([Type.Literal('start'), Type.Literal('stop'), Type.Literal('restart')]),
    commandId: Type.String(),
    /**
     * `sent`: JetStream holds it. `queued`: saved with the change but the bus did not take it yet; the
     * relay sends it as soon as the bus answers. Either way the connection itself changes asynchronously.
     */
    delivery: Type.Union([Type.Literal('sent'), Type.Literal('queued')]),
  },
  { additionalProperties: false, description: 'the broker-feed command this save caused, if any' },
)

export const SaveSettingResponse = Type.Object({
  success: Type.Literal(true),
  setting: SavedSetting,
  feedCommand: Type.Union([FeedCommandOutcome, Type.Null()]),
})
