import Type, { type Static } from 'typebox'
import { LiteralUnion } from '@signals/contracts'

/**
 * Whether an entry may change a position already open in its contract (issue 24 items 1-2,
 * docs/decisions/order-words.md). Its own area and file so other areas' changes merge without touching it.
 * Optional on POST; the defaults keep the refusals of before: an opposite entry or `reverse` is refused,
 * and so is a same-side entry or `add` (outside the anti-martingale mode's own pyramid levels).
 */
export const PositionChangesArea = Type.Object(
  {
    reversals: LiteralUnion(['refuse', 'allow'] as const, {
      default: 'refuse',
      description: 'an opposite entry, `reverse`, or a strategy reversal while a position is open: refuse = refused with the reason; allow = the position is closed, and once its close has filled the entry is placed',
    }),
    pyramiding: LiteralUnion(['refuse', 'allow'] as const, {
      default: 'refuse',
      description: 'a same-side entry or `add` while a position is open: refuse = refused with the reason (the anti-martingale mode keeps its own pyramid levels); allow = added within every limit, the whole position at most limits.maxContractsPerOrder',
    }),
    // Optional: configurations saved before it keep refusing.
    outOfSync: Type.Optional(LiteralUnion(['refuse', 'follow'] as const, {
      default: 'refuse',
      description: "an entry whose alert says the strategy's position before it (prev_market_position) differs from the account's at the broker: refuse = refused with both positions; follow = the account is brought to the strategy's position after the order (a flat account enters as sized; an opposite position of ours is closed first, as a reversal, when reversals are allowed); anything ambiguous is refused",
    })),
  },
  { additionalProperties: false, description: 'reversals and adding to an open position' },
)
export type PositionChanges = Static<typeof PositionChangesArea>
