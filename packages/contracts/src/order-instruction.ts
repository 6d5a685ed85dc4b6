import Type, { type Static } from 'typebox'
import { LiteralUnion } from './literal-union.ts'

const Price = Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])

/** Which working orders a `cancel` alert cancels: entries not filled, the stop legs, the target legs, or all of them. */
export const CancelScope = LiteralUnion(['all', 'entry', 'stop', 'target'] as const)
export type CancelScope = Static<typeof CancelScope>

/**
 * An alert that manages what is already at the broker instead of entering (issue 24, item 5;
 * docs/decisions/order-management-words.md). Published on alerts.entry, so each trader's record is written,
 * locked and settled as an entry's is; it never places an order of its own (a flatten goes through the
 * durable flatten requests, as an exit does).
 * - `modify`: the open trades' stop and/or target move to these prices (PickMyTrade `update_sl`/`update_tp`,
 *   CrossTrade `CHANGE`, ours `modify`);
 * - `cancel`: working orders in the alert's symbol (every symbol without one) are cancelled, by type;
 * - `flatten_account`: every position of the account flattened and every working order cancelled;
 * - `kill_switch`: what the kill switch button does: flatten, cancel, and auto-place off until the trader
 *   switches it on again.
 */
export const OrderInstructionV1 = Type.Union(
  [
    Type.Object({ kind: Type.Literal('modify'), sl: Price, tp: Price }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('cancel'), orders: CancelScope }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('flatten_account') }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('kill_switch') }, { additionalProperties: false }),
  ],
)
export type OrderInstruction = Static<typeof OrderInstructionV1>
