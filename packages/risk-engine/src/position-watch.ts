import { compare, negate } from '@signals/instruments'
import { accountFigures } from './account-figures.ts'
import type { RiskEngineConfig } from './config.ts'
import { decimal, money, ZERO } from './money.ts'
import type { AccountState } from './sizing-types.ts'

/** A limit breached while positions are open, which the caller answers by flattening and halting. */
export interface PositionBreach {
  code: 'daily_loss_limit_hard' | 'drawdown_floor'
  /** What was breached, with the figures: a clause without a capital or full stop (kept with the halt). */
  cause: string
  /** One sentence for the trades closed: the cause and what is done about it. */
  reason: string
}

const FLATTENED = 'every position is flattened and trading stops for the session'

/**
 * The account with its open pnl, checked while positions are open (the risk watchdog): a hard daily loss
 * limit reached (today's realized plus open pnl), or equity at or below the trailing floor. A soft limit
 * is no breach here: it only refuses new entries, which the entry rules already do. Pure.
 */
export function positionBreach(config: RiskEngineConfig, account: AccountState): PositionBreach | null {
  const figures = accountFigures(config, account)
  const open = money(figures.openPnl)
  const { enabled, amount, type } = config.dailyLossLimit
  if (enabled && type === 'hard' && figures.dailyLeft !== null && compare(figures.dailyLeft, ZERO) <= 0) {
    const cause = `today's loss of ${money(negate(figures.todayPnl))} (open pnl ${open}) reached the hard daily loss limit of ${money(decimal(amount))}`
    return { code: 'daily_loss_limit_hard', cause, reason: `${capitalized(cause)}: ${FLATTENED}.` }
  }
  if (compare(figures.room, ZERO) <= 0) {
    const cause = `the account's equity of ${money(figures.equity)} (open pnl ${open}) is at or below the ${config.trailingDrawdown.mode} drawdown floor of ${money(figures.floor)}`
    return { code: 'drawdown_floor', cause, reason: `${capitalized(cause)}: ${FLATTENED}.` }
  }
  return null
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
