import Type, { type Static } from 'typebox'

/**
 * The account's default for limit entries (issue 24, item 6; docs/decisions/limit-entry-timeout.md): a
 * limit entry not filled within `limitTimeoutSeconds` is cancelled, unless its alert sent its own
 * `limit_timeout`. Its own area and file so other areas' changes merge without touching it; optional on
 * POST, and its default (null) changes nothing.
 */
export const EntryOrdersArea = Type.Object(
  {
    limitTimeoutSeconds: Type.Union([Type.Integer({ minimum: 1, maximum: 86_400 }), Type.Null()], {
      default: null,
      description: 'a limit entry not filled within this many seconds is cancelled (the alert\'s limit_timeout wins); null = it works until filled or its time in force ends',
    }),
  },
  { additionalProperties: false, description: 'entry orders: how long a limit entry may wait' },
)
export type EntryOrders = Static<typeof EntryOrdersArea>
