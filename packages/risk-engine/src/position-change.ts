import type { RiskEngineConfig } from './config.ts'
import type { OpenTradeState, OrderCaps } from './sizing-types.ts'

type Side = 'LONG' | 'SHORT'

/** Why an entry that would change an open position is refused (on the record, with the reason). */
export type PositionChangeCode = 'reversal_not_allowed' | 'nothing_to_reverse' | 'pyramid_not_allowed' | 'nothing_to_add' | 'add_wrong_side' | 'incomplete_alert'

/**
 * What an entry does to the position open in its contract (issue 24 items 1-2):
 * - `enter`: place the entry on `side` (the risk engine's gates still apply; `adding` when it adds to a
 *   position the account allows pyramiding on, so the same-side gate lets it through);
 * - `close_first`: a reversal the account allows: the `closes` position of `held` contracts is closed, and
 *   the entry on `side` is placed once that close has filled;
 * - `refuse`: with the code and one sentence for the trader.
 */
export type PositionChange =
  | { kind: 'enter'; side: Side; adding: boolean }
  | { kind: 'close_first'; side: Side; closes: Side; held: number }
  | { kind: 'refuse'; code: PositionChangeCode; reason: string }

const opposite = (side: Side): Side => (side === 'LONG' ? 'SHORT' : 'LONG')

/**
 * Decides from the alert's word (`reverse`, `add`, or none), its side (null when `reverse`/`add` named
 * none), and our open trades in the contract (the broker nets them: one side at a time), with the account's
 * `positionChanges` settings. Without a word, an opposite entry is a reversal and a same-side entry an add,
 * each allowed only by its setting (a plain same-side entry otherwise keeps the anti-martingale mode's own
 * pyramid rules, in the risk engine's position gate).
 */
export function positionChange(config: RiskEngineConfig, word: 'reverse' | 'add' | null, side: Side | null, open: readonly OpenTradeState[], root: string): PositionChange {
  const held = open[0]?.side ?? null
  const heldQuantity = open.filter((trade) => trade.side === held).reduce((sum, trade) => sum + Number(trade.quantity), 0)
  const { reversals, pyramiding } = config.positionChanges
  const setting = (name: string) => `positionChanges.${name} is "refuse" in the risk settings`
  if (word === 'add') {
    if (held === null) return { kind: 'refuse', code: 'nothing_to_add', reason: `add: no ${root} position is open to add to; send buy or sell to open one.` }
    if (side !== null && side !== held) return { kind: 'refuse', code: 'add_wrong_side', reason: `add ${side}: the open ${root} position is ${held}, so this would not add to it.` }
    if (pyramiding !== 'allow') return { kind: 'refuse', code: 'pyramid_not_allowed', reason: `add: adding to the open ${held} ${root} position is off for this account (${setting('pyramiding')}).` }
    return { kind: 'enter', side: held, adding: true }
  }
  let wanted = side
  if (word === 'reverse') {
    const target = side ?? (held === null ? null : opposite(held))
    if (target === null) return { kind: 'refuse', code: 'nothing_to_reverse', reason: `reverse: no ${root} position is open and the alert names no side, so there is nothing to reverse.` }
    if (held === null) return { kind: 'enter', side: target, adding: false }
    if (held === target) return { kind: 'refuse', code: 'nothing_to_reverse', reason: `reverse to ${target}: the open ${root} position is already ${held}.` }
    wanted = target
  }
  if (wanted === null) return { kind: 'refuse', code: 'incomplete_alert', reason: 'the alert lacks an action, so no order can be made from it' }
  if (held === null) return { kind: 'enter', side: wanted, adding: false }
  if (held === wanted) return { kind: 'enter', side: wanted, adding: pyramiding === 'allow' }
  if (reversals !== 'allow') {
    return { kind: 'refuse', code: 'reversal_not_allowed', reason: `A ${held} ${root} position of ${heldQuantity} is open: a ${wanted} entry would reverse it, and reversals are off for this account (${setting('reversals')}).` }
  }
  return { kind: 'close_first', side: wanted, closes: held, held: heldQuantity }
}

/**
 * Contracts an add may still take: the whole position is held to every cap on one order (its stop and
 * target are orders of the position's size): limits.maxContractsPerOrder, the platform's ceiling and the
 * risk strategy's maximum contracts when set.
 */
export function additionRoom(config: RiskEngineConfig, open: readonly OpenTradeState[], caps: OrderCaps): number {
  const held = open.reduce((sum, trade) => sum + Number(trade.quantity), 0)
  return Math.max(0, positionCap(config, caps) - held)
}

/** The most contracts one order, and so a position added to, may hold. */
function positionCap(config: RiskEngineConfig, caps: OrderCaps): number {
  return Math.min(config.limits.maxContractsPerOrder, caps.platformMaxContracts, caps.maxContracts ?? Number.POSITIVE_INFINITY)
}
