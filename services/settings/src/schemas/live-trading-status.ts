import Type from 'typebox'
import { LiteralUnion } from '@signals/contracts'
import { SettingsByKey } from './trading-settings.ts'
import { CredentialsSummary } from './broker-credentials.ts'

const NullableTimestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()])

export const BrokerConnection = Type.Object(
  {
    connected: Type.Boolean({ description: 'true only while the broker connector reports the feed connected' }),
    state: LiteralUnion(['connecting', 'connected', 'stopped', 'error', 'not_started', 'unknown'] as const, {
      description: "the connector's last report; not_started: none; unknown: the bus did not answer",
    }),
    detail: Type.Union([Type.String(), Type.Null()]),
    updatedAt: NullableTimestamp,
    lastHeardAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'when the broker last sent anything on the feed (heartbeats included), refreshed while connected',
    }),
    up: Type.Boolean({ description: 'connected and the broker heard from within FEED_DOWN_GRACE_MS' }),
    health: Type.Union([Type.Literal('off'), Type.Literal('green'), Type.Literal('red')], {
      description: 'off: live trading off; red: the feed has been down longer than FEED_DOWN_GRACE_MS; green otherwise',
    }),
  },
  { additionalProperties: false },
)

export const Indicator = Type.Union([Type.Literal('green'), Type.Literal('yellow'), Type.Literal('red'), Type.Literal('gray')], {
  description:
    "green fully configured; yellow auto-place off, or the broker connection failing within FEED_DOWN_GRACE_MS; red credentials missing (wins over yellow), or the broker refusing the login or the feed down past the grace; gray live trading off",
})

/** The spec's GET /api/live-trading-status, plus status.indicator and status.brokerConnection. */
export const LiveTradingStatusResponse = Type.Object({
  success: Type.Literal(true),
  status: Type.Object(
    {
      liveTradingEnabled: Type.Boolean(),
      autoPlaceOrdersEnabled: Type.Boolean(),
      hasCredentials: Type.Boolean(),
      isFullyConfigured: Type.Boolean({ description: 'live trading on, auto-place on, credentials present (the spec\'s table; `indicator` also weighs the broker connection)' }),
      liveTradesCount: Type.Integer({ minimum: 0, description: "the user's open trades" }),
      accountId: Type.Union([Type.String(), Type.Null()]),
      credentialsUpdatedAt: NullableTimestamp,
      indicator: Indicator,
      indicatorReason: Type.Union([Type.String(), Type.Null()], { description: "why the indicator is not green, in the broker's words when the broker is why; null when green or gray" }),
      brokerConnection: BrokerConnection,
    },
    { additionalProperties: false },
  ),
  settings: SettingsByKey,
  credentials: Type.Union([CredentialsSummary, Type.Null()]),
})
