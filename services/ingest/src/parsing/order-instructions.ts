import type { CancelScope, OrderInstruction, Side } from '@signals/contracts'
import { Refusal } from '../refusal.ts'
import { bracketPrice } from './brackets.ts'
import { canonicalName, valuesOf, type Fields } from './fields.ts'
import { booleanValue, textValue } from './values.ts'

type Kind = OrderInstruction['kind']

/**
 * Action words that manage what is at the broker instead of entering (docs/alert-formats.md, "Managing
 * open trades"), compared after `canonicalName`. PickMyTrade's `update_sl`/`update_tp` flags are read
 * beside them (instructionOf).
 */
const INSTRUCTION_WORDS: ReadonlyMap<string, Kind> = new Map(
  Object.entries({
    // ours; CrossTrade CHANGE; PickMyTrade sends a side word with update_sl/update_tp instead.
    modify: 'modify', update: 'modify', change: 'modify', modifyorder: 'modify', updatebracket: 'modify', movestop: 'modify', movetarget: 'modify',
    // TradersPost `cancel`; CrossTrade CANCEL, CANCELORDERS, CANCELALLORDERS.
    cancel: 'cancel', cancelorders: 'cancel', cancelall: 'cancel', cancelallorders: 'cancel',
    // CrossTrade FLATTENEVERYTHING; ours.
    flatteneverything: 'flatten_account', flattenaccount: 'flatten_account', closeaccount: 'flatten_account',
    // ours (CrossTrade and TradersPost have a kill switch button only).
    killswitch: 'kill_switch', kill: 'kill_switch',
  } satisfies Record<string, Kind>),
)

/** Which orders a cancel reaches, by the type the alert names (`orderType` or `cancel_type`). */
const CANCEL_SCOPES: ReadonlyMap<string, CancelScope> = new Map(
  Object.entries({
    all: 'all', any: 'all', orders: 'all',
    entry: 'entry', entries: 'entry', open: 'entry', limit: 'entry', lmt: 'entry',
    stop: 'stop', stops: 'stop', stoploss: 'stop', sl: 'stop', stp: 'stop',
    target: 'target', targets: 'target', takeprofit: 'target', tp: 'target',
  } satisfies Record<string, CancelScope>),
)

const SIDE_WORDS: ReadonlyMap<string, Side> = new Map([['buy', 'LONG'], ['long', 'LONG'], ['sell', 'SHORT'], ['short', 'SHORT']])

const invalid = (message: string) => new Refusal(400, 'invalid', message)

/** What an instruction alert carries besides the instruction: the side of the trades a modify reaches, if named. */
export interface InstructionAlert {
  instruction: OrderInstruction
  side: Side | null
}

/**
 * The instruction an alert carries, or null for an entry or exit. An instruction word in any action field,
 * or PickMyTrade's `update_sl`/`update_tp` set true, makes it one. Beside it only a side word may be sent
 * (PickMyTrade sends the position's side as `data`): a modify then reaches that side's trades only. Any
 * other word, or two instructions, is refused rather than guessed.
 */
export function instructionOf(fields: Fields): InstructionAlert | null {
  const updates = booleanValue(fields.updateSl) || booleanValue(fields.updateTp)
  let kind: Kind | null = updates ? 'modify' : null
  let side: Side | null = null
  for (const value of valuesOf(fields, 'action')) {
    const word = canonicalName(textValue(value) ?? '')
    const named = INSTRUCTION_WORDS.get(word)
    if (named !== undefined) {
      if (kind !== null && kind !== named) throw invalid(`Contradictory alert: it asks for both ${kind.replace('_', ' ')} and ${named.replace('_', ' ')}`)
      kind = named
    } else if (SIDE_WORDS.has(word)) side = side ?? (SIDE_WORDS.get(word) as Side)
  }
  if (kind === null) return null
  const others = valuesOf(fields, 'action').map((value) => canonicalName(textValue(value) ?? '')).filter((word) => !INSTRUCTION_WORDS.has(word) && !SIDE_WORDS.has(word))
  if (others.length > 0) throw invalid(`Contradictory alert: "${others[0]?.slice(0, 40)}" cannot go with ${kind.replace('_', ' ')}`)
  return { instruction: build(kind, fields, updates), side: kind === 'modify' ? side : null }
}

function build(kind: Kind, fields: Fields, pickMyTradeFlags: boolean): OrderInstruction {
  if (kind === 'flatten_account' || kind === 'kill_switch') return { kind }
  if (kind === 'cancel') return { kind, orders: cancelScopeOf(fields) }
  // PickMyTrade: only the leg whose update flag is true moves; without flags (our words) every price sent moves.
  const wantsSl = !pickMyTradeFlags || booleanValue(fields.updateSl)
  const wantsTp = !pickMyTradeFlags || booleanValue(fields.updateTp)
  // No entry price to measure from: a relative stop or target (TradersPost amount, percent) is refused by bracketPrice.
  const none = { side: 'LONG' as const, entryPrice: null }
  const sl = wantsSl ? bracketPrice(fields.sl, 'stopLoss', none) : null
  const tp = wantsTp ? bracketPrice(fields.tp, 'takeProfit', none) : null
  if (sl === null && tp === null) throw invalid('A modify (update_sl, update_tp, modify) needs the new stop (sl) or target (tp) as a price above 0')
  return { kind, sl, tp }
}

function cancelScopeOf(fields: Fields): CancelScope {
  const named = textValue(fields.cancelOrders) ?? textValue(fields.orderType)
  if (named === null) return 'all'
  const scope = CANCEL_SCOPES.get(canonicalName(named))
  if (scope === undefined) throw invalid(`cancel: order type "${named.slice(0, 40)}" is not understood (expected all, entry, stop or target)`)
  return scope
}

/** A modify names the trades it moves by their symbol; cancel without one reaches every symbol; flatten and kill switch the whole account. */
export const needsSymbol = (instruction: OrderInstruction): boolean => instruction.kind === 'modify'
