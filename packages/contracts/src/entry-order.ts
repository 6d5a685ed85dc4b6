import Type, { type Static } from 'typebox'
import { LiteralUnion } from './literal-union.ts'

/** The entry order's type (issue 24, item 6). A market or limit entry without this field is today's entry. */
export const EntryOrderType = LiteralUnion(['market', 'limit', 'stop', 'stop_limit'] as const)
export type EntryOrderType = Static<typeof EntryOrderType>

/** How long the entry order works at the broker (Tradovate `timeInForce`). */
export const TimeInForce = LiteralUnion(['Day', 'GTC', 'IOC', 'FOK'] as const)
export type TimeInForce = Static<typeof TimeInForce>

/**
 * What the alert asked of the entry order beyond its side and prices: its type, the trigger of a stop or
 * stop-limit entry (the limit of a stop-limit, and the price of a limit entry, are the alert's entryPrice),
 * and its time in force (null: the broker's default, Day).
 */
export const EntryOrderV1 = Type.Object(
  {
    type: EntryOrderType,
    /** The trigger of a stop or stop-limit entry; null for market and limit entries. */
    stopPrice: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()]),
    timeInForce: Type.Union([TimeInForce, Type.Null()]),
    /** A limit entry not filled within this many seconds of its decision is cancelled (`limit_timeout`; broker-connector entry/limit-timeouts.ts). */
    limitTimeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
    /**
     * What the timeout does (`limit_timeout_action`, or PickMyTrade's `lmt_to_market_wait`): cancel, or send the
     * unfilled remainder at the market (re-sized against the account's limits). Absent: the account's
     * `entryOrders.onLimitTimeout` (default cancel).
     */
    limitTimeoutAction: Type.Optional(LiteralUnion(['cancel', 'market'] as const)),
  },
  { additionalProperties: false },
)
export type EntryOrder = Static<typeof EntryOrderV1>
