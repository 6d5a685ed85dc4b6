import { antiMartingaleContracts } from './anti-martingale.ts'
import type { RiskEngineConfig } from './config.ts'
import { floorDivide, multiply } from '@signals/instruments'
import { decimal, plain } from './money.ts'
import { refuse, type Refusal } from './refusal.ts'
import type { AccountState, EntryIntent } from './sizing-types.ts'

/** The size a mode asks for before the risk limits: `risk` when the budget alone decides it (fixed_fraction). */
export type ModeQuantity = { kind: 'risk' } | { kind: 'contracts'; quantity: number; heldByBudget: boolean; note: string | null }

export function modeQuantity(config: RiskEngineConfig, account: AccountState, alert: EntryIntent): ModeQuantity | Refusal {
  // A subscription's multiplier replaces the mode's size; the budget at the stop and the caps still hold it.
  if (alert.quantityMultiplier !== undefined && alert.quantityMultiplier !== null) return multipliedQuantity(alert.quantity, alert.quantityMultiplier)
  const { mode, fixedContracts } = config.riskMode
  switch (mode) {
    case 'fixed_fraction':
      return { kind: 'risk' }
    case 'fixed_contracts':
      return { kind: 'contracts', quantity: fixedContracts, heldByBudget: false, note: null }
    case 'anti_martingale_pyramiding':
      return { kind: 'contracts', quantity: antiMartingaleContracts(config.antiMartingale, account.closedResults), heldByBudget: false, note: null }
    case 'alert_quantity':
      return alertQuantity(fixedContracts, alert.quantity)
  }
}

function alertQuantity(cap: number, quantity: number | null): ModeQuantity | Refusal {
  if (quantity === null) return refuse('no_quantity', 'The alert sent no quantity and the alert_quantity mode sizes from it.')
  if (!Number.isInteger(quantity) || quantity < 1) {
    return refuse('invalid_quantity', `The alert's quantity ${quantity} is not a whole number of contracts of at least 1.`)
  }
  if (quantity <= cap) return { kind: 'contracts', quantity, heldByBudget: true, note: null }
  return { kind: 'contracts', quantity: cap, heldByBudget: true, note: `The alert asked for ${quantity} contracts; riskMode.fixedContracts caps it at ${cap}.` }
}

function multipliedQuantity(quantity: number | null, multiplier: string): ModeQuantity | Refusal {
  if (quantity === null) return refuse('no_quantity', `The alert sent no quantity, and your subscription to its source sizes entries as a multiplier (${multiplier}) of it.`)
  const product = multiply(decimal(quantity), decimal(multiplier))
  const contracts = Number(floorDivide(product, decimal(1)))
  const sum = `${quantity} x ${plain(decimal(multiplier))} = ${plain(product)}`
  if (contracts < 1) return refuse('invalid_quantity', `The alert's quantity times your subscription's multiplier, ${sum}: less than one contract.`)
  const whole = plain(product) === String(contracts) ? '' : `, ${contracts} whole`
  return { kind: 'contracts', quantity: contracts, heldByBudget: true, note: `Sized by the source's multiplier: ${sum} contract(s)${whole}.` }
}
