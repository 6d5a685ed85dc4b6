import { add, contractSpec, parseDecimal, toPlain, type Decimal } from '@signals/instruments'
import { closingAction, positionOpenPnl } from '@signals/risk-engine'
import type { BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { HeldContract } from '../../repositories/account-rows.ts'

/** The open pnl of the broker's positions, or why it is not known (a clause without a full stop). */
export type MarkedOpenPnl = { kind: 'known'; openPnl: string; positions: number } | { kind: 'unknown'; reason: string }

export interface MarkOptions {
  now: Date
  /** A quote older than this is not trusted (MARKET_PRICE_MAX_AGE_MS). */
  maxPriceAgeMs: number
}

/**
 * The open pnl of the broker's net positions in the contracts the user's open trades are in: each marked
 * at the price it could be closed at (the bid for a long, the ask for a short, from the session's market
 * data), (mark - the broker's average price) x net position x point value. A held position without a
 * trusted price (no quote, a stale one, no average price) makes the whole figure unknown: the caller
 * refuses rather than guess. No open trade: zero, without asking the broker.
 */
export async function markOpenPnl(session: BrokerSession, held: readonly HeldContract[], options: MarkOptions): Promise<MarkedOpenPnl> {
  if (held.length === 0) return { kind: 'known', openPnl: '0', positions: 0 }
  // A BrokerError is the caller's: an entry is retried as for any broker failure, the watchdog waits.
  const positions = await session.listPositions()
  let total: Decimal = parseDecimal(0)
  let count = 0
  for (const contract of held) {
    const position = positions.find((candidate) => candidate.contractId === contract.contractId)
    if (!position || position.netPos === 0) continue
    const pointValue = contractSpec(contract.root)?.pointValue
    if (pointValue === undefined) return { kind: 'unknown', reason: `the point value of ${contract.contract} is not known` }
    if (position.netPrice === null) return { kind: 'unknown', reason: `the broker gave no average price for the ${contract.contract} position` }
    const quoted = await session.marketPrice({ id: contract.contractId, name: contract.contract }, closingAction(position.netPos))
    if (quoted.kind === 'none') return { kind: 'unknown', reason: `the open ${contract.contract} position cannot be priced: ${quoted.reason}` }
    const ageMs = options.now.getTime() - quoted.at.getTime()
    if (ageMs > options.maxPriceAgeMs) {
      return { kind: 'unknown', reason: `the open ${contract.contract} position cannot be priced: its last quote is ${Math.round(ageMs / 1000)} s old, older than the ${Math.round(options.maxPriceAgeMs / 1000)} s limit` }
    }
    total = add(total, parseDecimal(positionOpenPnl({ netPos: position.netPos, averagePrice: position.netPrice, markPrice: quoted.price, pointValue })))
    count++
  }
  return { kind: 'known', openPnl: toPlain(total), positions: count }
}
