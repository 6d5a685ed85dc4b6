// The risk section's live sentence: what the next alert would trade with the settings as typed, worked
// out by the risk engine's own sizing (packages/risk-engine's sizeEntry, the connector's code; imported by
// path, as room-left.ts does, so no TypeBox reaches the bundle). The account is a fresh one at the starting
// balance: the page knows the settings, not the broker's positions.
import { contractSpec, parseDecimal, subtract, toPlain } from '@signals/instruments'
import type { RiskEngineConfig } from '../../../../packages/risk-engine/src/config.ts'
import { deriveAccountState } from '../../../../packages/risk-engine/src/account-state.ts'
import { money } from '../../../../packages/risk-engine/src/money.ts'
import { sizeEntry } from '../../../../packages/risk-engine/src/size-entry.ts'
import type { RiskConfig } from './api-routes.ts'
import { inTradersWords } from './risk-fields.ts'

/**
 * The platform's ceiling on one order (the connector's MAX_CONTRACTS_PER_ORDER default; an operator may set
 * it lower). Held to the connector's default by test/page/risk-fields.test.ts.
 */
export const PLATFORM_MAX_CONTRACTS = 50

export interface ExampleAlert {
  /** Contract root (`MNQ`). */
  root: string
  /** The price the alert fires at (and the market fills at). */
  price: number
  /** Points from the entry to the stop. */
  stopPoints: number
  /** Contracts the alert asks for (the alert_quantity mode). */
  quantity: number
}

const contracts = (count: number) => `${count} contract${count === 1 ? '' : 's'}`

/** "The next MNQ alert with a 20-point stop trades 5 contracts, risking $200.00." (or why it would be refused). */
export function exampleSentence(config: RiskEngineConfig | RiskConfig, example: ExampleAlert, now: Date): string {
  const spec = contractSpec(example.root)
  if (!spec) return `${example.root} is not a contract the platform trades.`
  if (!(example.price > 0) || !(example.stopPoints > 0)) return 'Give a price and a stop above zero to see what an alert would trade.'
  const mode = config.riskMode.mode
  const stop = toPlain(subtract(parseDecimal(example.price), parseDecimal(example.stopPoints)))
  // Sizing reads no session rules (the connector checks those before it sizes), so a configuration
  // answered without them sizes as one with them.
  const full = config as RiskEngineConfig
  const account = deriveAccountState(full, { brokerBalance: null, closedDays: [], openTrades: [] }, now)
  const decision = sizeEntry({
    config: full,
    account,
    alert: { side: 'LONG', orderType: 'market', entryPrice: String(example.price), stopPrice: stop, targetPrice: null, quantity: mode === 'alert_quantity' ? example.quantity : null },
    contract: { root: spec.root, pointValue: spec.pointValue, tickSize: spec.tickSize },
    market: { price: String(example.price) },
    caps: { platformMaxContracts: PLATFORM_MAX_CONTRACTS, maxContracts: null },
  })
  const asked = mode === 'alert_quantity' ? ` for ${contracts(example.quantity)}` : ''
  const alert = `the next ${spec.root} alert${asked} with a ${example.stopPoints}-point stop`
  if (decision.kind === 'refuse') return `On a fresh account, ${alert} would be refused: ${inTradersWords(decision.reason, mode)}`
  const risking = decision.riskAtStop === null ? '' : `, risking ${money(parseDecimal(decision.riskAtStop))}`
  const note = decision.note ? ` ${inTradersWords(decision.note, mode)}` : ''
  return `On a fresh account, ${alert} trades ${contracts(decision.quantity)}${risking}.${note}`
}
