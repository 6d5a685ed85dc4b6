import Type, { type Static } from 'typebox'
import { ClosePartV1, OrderWord } from './order-words.ts'
import { OrderInstructionV1 } from './order-instruction.ts'
import { EntryOrderV1 } from './entry-order.ts'
import { StrategyPositionV1 } from './strategy-position.ts'
import { SignalSourceId } from './signal-source.ts'
import { ExitPlanV1, TrailingStopV1 } from './exit-plan.ts'

export const Side = Type.Union([Type.Literal('LONG'), Type.Literal('SHORT')])
export type Side = Static<typeof Side>

/** The order action that closes a position of this side (its stops, targets and closing orders): a long is closed by selling. */
export const exitSideOf = (side: Side): 'Sell' | 'Buy' => (side === 'LONG' ? 'Sell' : 'Buy')

/** What a result alert says happened. `Exit` is stored on the trade as `Session End`. */
export const AlertResult = Type.Union([Type.Literal('TP'), Type.Literal('SL'), Type.Literal('Exit')])
export type AlertResult = Static<typeof AlertResult>

export const AlertKind = Type.Union([Type.Literal('entry'), Type.Literal('result'), Type.Literal('test')])
export type AlertKind = Static<typeof AlertKind>

const Price = Type.Union([Type.Number(), Type.Null()])
const Text = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()])

/**
 * The spec's normalized alert (in-flight), version 1. Prices are numbers; fields the alert did not carry
 * are null. `raw` keeps the original payload (or the raw text, with `_raw: true`, when parsing failed).
 */
export const NormalizedAlertV1 = Type.Object(
  {
    version: Type.Literal(1),
    /** Assigned by ingest; stable for a resent alert so the bus drops the duplicate. */
    alertId: Type.String({ minLength: 1, maxLength: 64 }),
    kind: AlertKind,
    receivedAt: Type.String({ format: 'date-time' }),
    action: Type.Union([Side, Type.Null()]),
    symbol: Text(64),
    /** Contract root the symbol maps to (NQ for NQ1!, NQZ6, CME_MINI:NQ1!), or null when unknown. */
    root: Text(16),
    entryPrice: Price,
    sl: Price,
    tp: Price,
    /** Exit price of a result alert (`exitPrice`, else `price`, else `entryPrice`). */
    exitPrice: Price,
    indicator: Text(255),
    userId: Text(255),
    leverage: Price,
    /** Contracts the sender asked for (`quantity`, `contracts`, `{{strategy.order.contracts}}`), or null. */
    quantity: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()]),
    result: Type.Union([AlertResult, Type.Null()]),
    /**
     * The side of the position a result alert closes (`exit_long` -> LONG; `sell` with sentiment `flat` ->
     * LONG), or null when the alert does not say (`exit` closes whichever is open) and on entries.
     */
    closes: Type.Union([Side, Type.Null()]),
    isVendorTest: Type.Boolean(),
    /** True when the body could not be parsed into fields; `raw` then holds the text with `_raw: true`. */
    parseFailed: Type.Boolean(),
    raw: Type.Unknown(),
    // Optional (issue 24), so messages from an ingest that does not send them still pass; absent means null.
    /** An entry that changes the open position: `reverse` or `add` (order-words.ts), or null. */
    orderWord: Type.Optional(Type.Union([OrderWord, Type.Null()])),
    /** A result alert that closes part of the position (the rest keeps its legs, resized), or null: it closes all. */
    closePart: Type.Optional(Type.Union([ClosePartV1, Type.Null()])),
    /** Set on an alert that manages the open trades or the account instead of entering (order-instruction.ts). */
    instruction: Type.Optional(OrderInstructionV1),
    /** Set on a stop or stop-limit entry, or one with a time in force (entry-order.ts). */
    entryOrder: Type.Optional(EntryOrderV1),
    /** Set on an entry that says where the strategy's position was before it (strategy-position.ts). */
    strategyPosition: Type.Optional(StrategyPositionV1),
    /**
     * The signal source the alert came through (`POST /webhook/s/<token>`, issue 22); absent for the spec's
     * `POST /webhook/alert` (the default operator source). Optional, so older messages still pass.
     */
    sourceId: Type.Optional(SignalSourceId),
    /** Set on an entry with several targets (TP1/TP2/TP3), and the move to breakeven after TP1 (exit-plan.ts). */
    exitPlan: Type.Optional(ExitPlanV1),
    /** Set on an entry whose stop trails the market (exit-plan.ts). */
    trailingStop: Type.Optional(TrailingStopV1),
  },
  { additionalProperties: false, $id: 'NormalizedAlertV1' },
)
export type NormalizedAlert = Static<typeof NormalizedAlertV1>
