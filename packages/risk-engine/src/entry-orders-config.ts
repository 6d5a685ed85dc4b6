import Type, { type Static } from 'typebox'
import { LiteralUnion } from '@signals/contracts'

/**
 * The account's default for limit entries (issue 24, item 6; docs/decisions/limit-entry-timeout.md): a
 * limit entry not filled within `limitTimeoutSeconds` is cancelled (or, with `onLimitTimeout: market`, its
 * rest sent at the market), unless its alert sent its own `limit_timeout` / `limit_timeout_action`. Its own
 * area and file so other areas' changes merge without touching it; optional on POST, and its defaults
 * (null, cancel) change nothing.
 */
export const EntryOrdersArea = Type.Object(
  {
    limitTimeoutSeconds: Type.Union([Type.Integer({ minimum: 1, maximum: 86_400 }), Type.Null()], {
      default: null,
      description: 'a limit entry not filled within this many seconds is cancelled (the alert\'s limit_timeout wins); null = it works until filled or its time in force ends',
    }),
    // Optional: configurations saved before it keep cancelling.
    onLimitTimeout: Type.Optional(LiteralUnion(['cancel', 'market'] as const, {
      default: 'cancel',
      description: 'what a limit entry\'s timeout does when its alert does not say (limit_timeout_action): cancel it, or send its unfilled remainder at the market, re-sized at the market price against these limits',
    })),
  },
  { additionalProperties: false, description: 'entry orders: how long a limit entry may wait, and what then' },
)
export type EntryOrders = Static<typeof EntryOrdersArea>
