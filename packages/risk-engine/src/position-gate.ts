import { add, compare, type Decimal } from '@signals/instruments'
import type { RiskEngineConfig } from './config.ts'
import { decimal, money, ZERO } from './money.ts'
import { refuse, type Refusal } from './refusal.ts'
import type { AccountState, ContractTerms, EntryIntent } from './sizing-types.ts'

/**
 * An entry in a contract the user already holds. Opposite side: refused (the broker nets positions, so
 * it would close or flip the open trade and orphan its bracket). Same side: an added level, allowed only
 * in anti_martingale_pyramiding, up to pyramidLevels, and only while those trades are winning, or when the
 * account allows pyramiding (positionChanges.pyramiding, issue 24).
 */
export function positionGate(config: RiskEngineConfig, account: AccountState, alert: EntryIntent, contract: ContractTerms): Refusal | null {
  const inContract = account.openTrades.filter((trade) => trade.root.toUpperCase() === contract.root.toUpperCase())
  const opposite = inContract.filter((trade) => trade.side !== alert.side)
  if (opposite.length > 0) {
    if (opposite.every((trade) => trade.unconfirmed === true)) {
      return refuse('opposite_position', `An earlier ${opposite[0]?.side} ${contract.root} entry's outcome is unknown (its order may still reach the broker): a ${alert.side} entry could net against it, so it is not placed; check the broker.`)
    }
    return refuse('opposite_position', `A ${opposite[0]?.side} ${contract.root} trade is open: a ${alert.side} entry would net against it, so close it first.`)
  }
  if (inContract.length === 0) return null
  // The account allows adding (positionChanges.pyramiding): the whole position is held to the limits by the
  // caller (additionRoom); in anti_martingale_pyramiding the mode's own levels and winning rule still hold.
  if (config.riskMode.mode !== 'anti_martingale_pyramiding') {
    if (config.positionChanges.pyramiding === 'allow') return null
    if (inContract.every((trade) => trade.unconfirmed === true)) {
      return refuse('pyramid_limit', `An earlier ${alert.side} ${contract.root} entry's outcome is unknown (its order may still reach the broker) and the ${config.riskMode.mode} mode does not add to positions; check the broker.`)
    }
    return refuse('pyramid_limit', `A ${alert.side} ${contract.root} trade is already open and the ${config.riskMode.mode} mode does not add to positions.`)
  }
  const { pyramidLevels } = config.antiMartingale
  if (inContract.length > pyramidLevels) {
    return refuse('pyramid_limit', `${inContract.length} ${alert.side} ${contract.root} trades are open, the first entry and ${inContract.length - 1} added levels, and pyramidLevels allows ${pyramidLevels} additions.`)
  }
  if (inContract.some((trade) => trade.openPnl === null || trade.openPnl === undefined)) {
    return refuse('pyramid_limit', `The open ${contract.root} trade's profit is not known, so the ${alert.side} position cannot be shown to be winning; no level is added.`)
  }
  const openPnl = inContract.reduce<Decimal>((sum, trade) => add(sum, decimal(trade.openPnl as string)), ZERO)
  if (compare(openPnl, ZERO) > 0) return null
  return refuse('pyramid_limit', `The open ${alert.side} ${contract.root} position is at ${money(openPnl)}, not winning: pyramiding adds only to a winning position.`)
}
