import type { StrategyPosition } from '@signals/contracts'
import type { BrokerSession } from '../broker/broker-adapter.ts'
import type { SizingMemo } from './size-order.ts'

/** Where the record's `strategy_position` says the strategy was before the entry (a record written before has none). */
function positionBefore(stored: unknown): NonNullable<StrategyPosition['before']> | null {
  if (stored === null || typeof stored !== 'object') return null
  const { before } = stored as Partial<StrategyPosition>
  return before === 'LONG' || before === 'SHORT' || before === 'FLAT' ? before : null
}

const words = (net: number) => (net > 0 ? `long ${net}` : net < 0 ? `short ${-net}` : 'flat')

/**
 * The position sync guard (issue 24, item 7; docs/decisions/order-management-words.md): an entry whose
 * alert says where the strategy's position was before it (`prev_market_position`) is refused, with the
 * reason, when the account's position in the contract at the broker is on another side: placed, it would
 * leave the account out of step with the strategy (an entry on top of a position the strategy does not
 * have, or a reversal of one the account does not hold). Null when they agree or the alert does not say.
 */
export async function positionOutOfSync(
  session: BrokerSession,
  memo: SizingMemo,
  record: { symbol: string; received_at: Date; strategy_position?: unknown },
): Promise<{ code: 'position_out_of_sync'; reason: string; contract: string } | null> {
  const before = positionBefore(record.strategy_position)
  const dated = before === null ? null : memo.contractOf(record.symbol, record.received_at)
  // An unknown contract is refused by the sizing with its own reason.
  if (before === null || dated === null) return null
  const contract = await session.findContract(dated.name)
  const net = (await session.listPositions()).filter((position) => position.contractId === contract.id).reduce((sum, position) => sum + position.netPos, 0)
  const account = net > 0 ? 'LONG' : net < 0 ? 'SHORT' : 'FLAT'
  if (account === before) return null
  return {
    code: 'position_out_of_sync',
    reason: `not placed: the strategy says its position in ${dated.name} was ${before.toLowerCase()} before this order, but the account is ${words(net)} at the broker; refused rather than trade out of step with the strategy (bring the account in line, or send the alert without prev_market_position)`,
    contract: dated.name,
  }
}
