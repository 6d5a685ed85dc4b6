import Type, { type Static } from 'typebox'

/** One take-profit level of several (TP1, TP2, TP3): its price, and the contracts it closes (null: an equal share). */
export const ExitTargetV1 = Type.Object(
  {
    price: Type.Number({ exclusiveMinimum: 0 }),
    quantity: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  },
  { additionalProperties: false },
)
export type ExitTarget = Static<typeof ExitTargetV1>

/**
 * Several targets and the move to breakeven (issue 24, item 4; docs/decisions/targets-breakeven.md). The
 * targets run from the nearest to the entry to the farthest; either every target has a quantity or none
 * does. `breakeven`: once TP1 has filled, the stop of the rest moves to the entry price plus `offsetTicks`
 * in the trade's favour (0: the entry price itself); null: the stop stays where it was sized.
 */
export const ExitPlanV1 = Type.Object(
  {
    targets: Type.Array(ExitTargetV1, { minItems: 2, maxItems: 3 }),
    breakeven: Type.Union([Type.Object({ offsetTicks: Type.Integer({ minimum: 0, maximum: 1000 }) }, { additionalProperties: false }), Type.Null()]),
  },
  { additionalProperties: false },
)
export type ExitPlan = Static<typeof ExitPlanV1>

/**
 * A trailing stop (issue 24, item 4): once the market reaches `triggerPrice` (null: at once), the stop
 * follows it at `distanceTicks` or `distancePrice` (exactly one), moving in steps of at least `stepTicks`
 * ticks, and never back. Carried out by the connector on the trade's own stop.
 */
export const TrailingStopV1 = Type.Object(
  {
    distanceTicks: Type.Union([Type.Integer({ minimum: 1, maximum: 100_000 }), Type.Null()]),
    distancePrice: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()]),
    triggerPrice: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()]),
    stepTicks: Type.Integer({ minimum: 1, maximum: 100_000 }),
  },
  { additionalProperties: false },
)
export type TrailingStop = Static<typeof TrailingStopV1>
