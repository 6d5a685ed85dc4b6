import type { StrategyPosition } from '@signals/contracts'
import type { OpenTradeState } from '@signals/risk-engine'
import type { BrokerContract, BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { SizingMemo } from './size-order.ts'

type Side = 'LONG' | 'SHORT'
type Position = Side | 'FLAT'

/** Where the record's `strategy_position` says the strategy was before the entry, and will be after (a record written before has none). */
function strategyOf(stored: unknown): { before: Position; after: Position | null } | null {
  if (stored === null || typeof stored !== 'object') return null
  const { before, after } = stored as Partial<StrategyPosition>
  const known = (value: unknown): value is Position => value === 'LONG' || value === 'SHORT' || value === 'FLAT'
  return known(before) ? { before, after: known(after) ? after : null } : null
}

const words = (net: number) => (net > 0 ? `long ${net}` : net < 0 ? `short ${-net}` : 'flat')

/** The strategy and the account disagree: what the guard found, for a refusal or for following the strategy. */
export interface OutOfSync {
  code: 'position_out_of_sync'
  reason: string
  contract: BrokerContract
  before: Position
  after: Position | null
  /** The account's net position in the contract at the broker. */
  net: number
}

/**
 * The position sync guard (issue 24, item 7; docs/decisions/order-management-words.md): an entry whose
 * alert says where the strategy's position was before it (`prev_market_position`) is out of sync, with the
 * reason, when the account's position in the contract at the broker is on another side: placed as it is, it
 * would leave the account out of step with the strategy (an entry on top of a position the strategy does
 * not have, or a reversal of one the account does not hold). Null when they agree or the alert does not say.
 */
export async function positionOutOfSync(
  session: BrokerSession,
  memo: SizingMemo,
  record: { symbol: string; received_at: Date; strategy_position?: unknown },
): Promise<OutOfSync | null> {
  const strategy = strategyOf(record.strategy_position)
  const dated = strategy === null ? null : memo.contractOf(record.symbol, record.received_at)
  // An unknown contract is refused by the sizing with its own reason.
  if (strategy === null || dated === null) return null
  const contract = await session.findContract(dated.name)
  const net = (await session.listPositions()).filter((position) => position.contractId === contract.id).reduce((sum, position) => sum + position.netPos, 0)
  const account = net > 0 ? 'LONG' : net < 0 ? 'SHORT' : 'FLAT'
  if (account === strategy.before) return null
  return {
    code: 'position_out_of_sync',
    reason: `not placed: the strategy says its position in ${dated.name} was ${strategy.before.toLowerCase()} before this order, but the account is ${words(net)} at the broker; refused rather than trade out of step with the strategy (bring the account in line, or send the alert without prev_market_position)`,
    contract,
    ...strategy,
    net,
  }
}

/** Bringing the account to the strategy: enter as sized (the account is flat), close first (an opposite position of ours), or refuse. */
export type FollowStep =
  | { kind: 'enter' }
  | { kind: 'close_first'; side: Side; closes: Side; held: number; contract: BrokerContract; note: string }
  | { kind: 'refuse'; reason: string }

/**
 * `positionChanges.outOfSync: follow`: the account is brought to what the strategy holds after the order,
 * never beyond the account's rules. The entry's side is where the strategy ends (`market_position`, else the
 * alert's side; the two disagreeing, or the strategy ending flat, is ambiguous). A flat account enters as
 * sized; an account already on that side is not stacked on; an opposite position is closed first (the
 * reversal path: the entry waits for the close's fill) only when it is wholly our trades' and reversals are
 * allowed. Every other case is refused with the reason.
 */
export function followStrategy(found: OutOfSync, entrySide: Side | null, ours: readonly OpenTradeState[], reversals: 'refuse' | 'allow'): FollowStep {
  const name = found.contract.name
  const said = `position sync: the strategy says it was ${found.before.toLowerCase()} in ${name} before this order${found.after === null ? '' : ` and ${found.after.toLowerCase()} after it`}, the account is ${words(found.net)}`
  const refuse = (why: string) => ({ kind: 'refuse' as const, reason: `not placed: ${said}; ${why}` })
  const side = found.after === 'FLAT' ? null : (found.after ?? entrySide)
  if (side === null || (entrySide !== null && side !== entrySide)) return refuse('the alert does not say plainly which side the strategy ends on, so the account is not brought to it')
  const held = Math.abs(found.net)
  const holding: Position = found.net > 0 ? 'LONG' : found.net < 0 ? 'SHORT' : 'FLAT'
  if (holding === 'FLAT') return { kind: 'enter' }
  if (holding === side) return refuse(`the account already holds the strategy's side (${side.toLowerCase()}), so nothing is added to it`)
  const oursHeld = ours.filter((trade) => trade.side === holding).reduce((sum, trade) => sum + Number(trade.quantity), 0)
  if (oursHeld !== held) return refuse(`the ${holding.toLowerCase()} position at the broker is not (wholly) our trades', so it is not closed from here`)
  if (reversals !== 'allow') return refuse('bringing the account in line would reverse its position, and reversals are off for this account (positionChanges.reversals is "refuse")')
  return { kind: 'close_first', side, closes: holding, held, contract: found.contract, note: `${said}; ` }
}
