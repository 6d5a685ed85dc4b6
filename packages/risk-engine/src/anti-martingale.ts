import type { RiskEngineConfig } from './config.ts'

/**
 * Contracts for the next trade in anti_martingale_pyramiding mode: starting at baseContracts, every
 * winsToStepUp consecutive wins add stepContracts, every lossesToStepDown consecutive losses remove
 * them, never below baseContracts nor above maxContracts. The run (W or L per closed trade) is walked
 * oldest first; a step resets the count of the run that caused it.
 */
export function antiMartingaleContracts(steps: RiskEngineConfig['antiMartingale'], resultsOldestFirst: string): number {
  const { baseContracts, maxContracts, winsToStepUp, lossesToStepDown, stepContracts } = steps
  let contracts = baseContracts
  let wins = 0
  let losses = 0
  for (const result of resultsOldestFirst) {
    if (result === 'W') {
      wins += 1
      losses = 0
      if (wins === winsToStepUp) {
        contracts = Math.min(maxContracts, contracts + stepContracts)
        wins = 0
      }
    } else {
      losses += 1
      wins = 0
      if (losses === lossesToStepDown) {
        contracts = Math.max(baseContracts, contracts - stepContracts)
        losses = 0
      }
    }
  }
  return contracts
}
