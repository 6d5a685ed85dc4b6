import { antiMartingaleContracts } from './anti-martingale.ts'
import type { RiskEngineConfig } from './config.ts'
import { refuse, type Refusal } from './refusal.ts'
import type { AccountState, EntryIntent } from './sizing-types.ts'

/** The size a mode asks for before the risk limits: `risk` when the budget alone decides it (fixed_fraction). */
export type ModeQuantity = { kind: 'risk' } | { kind: 'contracts'; quantity: number; heldByBudget: boolean; note: string | null }

export function modeQuantity(config: RiskEngineConfig, account: AccountState, alert: EntryIntent): ModeQuantity | Refusal {
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
