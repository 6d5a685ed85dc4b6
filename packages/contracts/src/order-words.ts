import Type, { type Static } from 'typebox'

/**
 * Words that change an open position rather than open one (issue 24 items 1-3, docs/decisions/order-words.md):
 * `reverse` closes the position, waits for that fill, then enters the other side; `add` adds to the
 * position on its side. Partial closes are result alerts that carry a `closePart`.
 */
export const OrderWord = Type.Union([Type.Literal('reverse'), Type.Literal('add')])
export type OrderWord = Static<typeof OrderWord>

/**
 * How much of the position a partial close closes; exactly one of the three is set: contracts to close
 * (`quantity`), a share of the position (TradersPost `percent_of_position`, 0-100 exclusive of 0), or the
 * position's size after the order (TradingView `{{strategy.market_position_size}}`).
 */
export const ClosePartV1 = Type.Object(
  {
    quantity: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()]),
    percent: Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 100 }), Type.Null()]),
    remaining: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  },
  { additionalProperties: false },
)
export type ClosePart = Static<typeof ClosePartV1>
