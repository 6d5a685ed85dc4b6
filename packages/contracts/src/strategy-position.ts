import Type, { type Static } from 'typebox'
import { LiteralUnion } from './literal-union.ts'

export const StrategyPositionSide = LiteralUnion(['LONG', 'SHORT', 'FLAT'] as const)
export type StrategyPositionSide = Static<typeof StrategyPositionSide>

/**
 * Where the sender's strategy says its position was before the order and is after it (TradingView
 * `{{strategy.prev_market_position}}`, `{{strategy.market_position}}`, `{{strategy.market_position_size}}`).
 * The connector's position sync guard compares `before` with the account's position (issue 24, item 7).
 */
export const StrategyPositionV1 = Type.Object(
  {
    before: Type.Union([StrategyPositionSide, Type.Null()]),
    after: Type.Union([StrategyPositionSide, Type.Null()]),
    /** Contracts after the order (its absolute value), or null when not sent. */
    size: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  },
  { additionalProperties: false },
)
export type StrategyPosition = Static<typeof StrategyPositionV1>
