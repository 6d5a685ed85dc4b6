// The one risk section's fields (issue 25, item 6): each field of the risk-engine configuration the page
// edits, in the trader's words, with a short help for each prop-firm term, and which sizing modes use it.
// Pure data: the bounds are the configuration schema's (packages/risk-engine/src/config.ts), held to it by
// test/page/risk-fields.test.ts (the schema itself would bring TypeBox into the bundle).
import type { RiskEngineConfig } from '../../../../packages/risk-engine/src/config.ts'

export type RiskMode = RiskEngineConfig['riskMode']['mode']
export type Area = Exclude<keyof RiskEngineConfig, 'sessionRules'>

interface Base {
  area: Area
  field: string
  label: string
  help: string
  /** The sizing modes that use the field; absent: every mode. */
  modes?: readonly RiskMode[]
  /** A label of its own in some modes (riskMode.fixedContracts means two things). */
  labelIn?: Partial<Record<RiskMode, string>>
}
export type RiskField =
  | (Base & { kind: 'number'; min: number; max: number; integer?: boolean; nullable?: string })
  | (Base & { kind: 'boolean' })
  | (Base & { kind: 'choice'; options: ReadonlyArray<readonly [string, string, string]> })

export interface RiskGroup {
  legend: string
  fields: readonly RiskField[]
}

const BUDGET_MODES: readonly RiskMode[] = ['fixed_fraction', 'alert_quantity']

export const MODE_LABELS: Record<RiskMode, string> = {
  fixed_fraction: 'Risk a share of the balance',
  anti_martingale_pyramiding: 'Anti-martingale: more after wins, fewer after losses',
  fixed_contracts: 'Always the same number of contracts',
  alert_quantity: "The alert's quantity",
}

/** What each mode needs from an alert, for the setup card and the sentence. */
export const MODE_NEEDS: Record<RiskMode, string> = {
  fixed_fraction: 'Every alert needs a stop (sl): the size is worked out from the loss at the stop.',
  anti_martingale_pyramiding: 'Every alert needs a stop (sl): no order is sent without one, and it must fit your loss limits.',
  fixed_contracts: 'Every alert needs a stop (sl): no order is sent without one, and it must fit your loss limits.',
  alert_quantity: 'Every alert needs a stop (sl) and a quantity (contracts): the size is the alert\'s, held to your maximum and your risk budget.',
}

export const RISK_GROUPS: readonly RiskGroup[] = [
  {
    legend: 'Sizing',
    fields: [
      {
        area: 'riskMode', field: 'mode', kind: 'choice', label: 'How orders are sized',
        help: 'Choose how many contracts each alert trades; only the fields this mode uses are shown.',
        options: [
          ['fixed_fraction', MODE_LABELS.fixed_fraction, 'Each trade risks at most the percentage below of your balance at its stop.'],
          ['anti_martingale_pyramiding', MODE_LABELS.anti_martingale_pyramiding, 'Starts at the base size, adds contracts after a run of wins and removes them after losses.'],
          ['fixed_contracts', MODE_LABELS.fixed_contracts, 'Every trade has the number of contracts below.'],
          ['alert_quantity', MODE_LABELS.alert_quantity, 'Trades the quantity the alert sends, at most the maximum below and never beyond the risk budget.'],
        ],
      },
      { area: 'limits', field: 'maxRiskPerTradePercent', kind: 'number', min: 0.01, max: 10, label: 'Risk per trade (% of balance)', help: 'The most one trade may lose at its stop.', modes: BUDGET_MODES },
      { area: 'limits', field: 'safetyBufferPercent', kind: 'number', min: 0, max: 50, label: 'Safety buffer (%)', help: 'A share of the room above your drawdown floor that a trade never risks.', modes: BUDGET_MODES },
      {
        area: 'riskMode', field: 'fixedContracts', kind: 'number', min: 1, max: 100, integer: true, label: 'Contracts per trade',
        labelIn: { alert_quantity: 'Most contracts from one alert' },
        help: 'Contracts each trade takes in this mode.', modes: ['fixed_contracts', 'alert_quantity'],
      },
      { area: 'antiMartingale', field: 'baseContracts', kind: 'number', min: 1, max: 100, integer: true, label: 'Base contracts', help: 'The size you start at, and return to after losses.', modes: ['anti_martingale_pyramiding'] },
      { area: 'antiMartingale', field: 'maxContracts', kind: 'number', min: 1, max: 100, integer: true, label: 'Most contracts after wins', help: 'Stepping up stops here; at least the base contracts.', modes: ['anti_martingale_pyramiding'] },
      { area: 'antiMartingale', field: 'winsToStepUp', kind: 'number', min: 1, max: 20, integer: true, label: 'Wins in a row to step up', help: 'Consecutive winning trades before the size grows by one step.', modes: ['anti_martingale_pyramiding'] },
      { area: 'antiMartingale', field: 'lossesToStepDown', kind: 'number', min: 1, max: 20, integer: true, label: 'Losses in a row to step down', help: 'Consecutive losing trades before the size shrinks by one step.', modes: ['anti_martingale_pyramiding'] },
      { area: 'antiMartingale', field: 'stepContracts', kind: 'number', min: 1, max: 20, integer: true, label: 'Contracts per step', help: 'How many contracts one step adds or removes.', modes: ['anti_martingale_pyramiding'] },
      { area: 'antiMartingale', field: 'pyramidLevels', kind: 'number', min: 0, max: 10, integer: true, label: 'Pyramid levels', help: 'Pyramiding: extra entries allowed in a contract you already hold with a profit (0: none).', modes: ['anti_martingale_pyramiding'] },
      { area: 'limits', field: 'maxContractsPerOrder', kind: 'number', min: 1, max: 100, integer: true, label: 'Contracts per order, at most', help: 'A hard cap in every mode: a larger size is cut to it.' },
      { area: 'limits', field: 'maxOpenTrades', kind: 'number', min: 1, max: 50, integer: true, label: 'Open trades at once, at most', help: 'A further alert is refused while this many trades are open.' },
      { area: 'limits', field: 'minStopTicks', kind: 'number', min: 1, max: 1000, integer: true, label: 'Stop at least (ticks from the fill)', help: 'A closer stop is refused: inside the spread it is no stop.' },
      { area: 'limits', field: 'maxEntryDistanceTicks', kind: 'number', min: 1, max: 100000, integer: true, label: "Market at most (ticks from the alert's price)", help: 'Refused when the market has moved further than this since the alert.' },
      { area: 'limits', field: 'marginPercent', kind: 'number', min: 0.1, max: 100, label: 'Margin per contract (% of its value)', help: 'What one contract is taken to tie up; open trades and the entry together may not need more than your equity.' },
    ],
  },
  {
    legend: 'Account and drawdown',
    fields: [
      { area: 'account', field: 'startingBalance', kind: 'number', min: 1000, max: 10000000, label: 'Starting balance (USD)', help: 'The balance your account or evaluation started with.' },
      { area: 'trailingDrawdown', field: 'amount', kind: 'number', min: 100, max: 1000000, label: 'Trailing drawdown (USD)', help: 'Trailing drawdown: your floor sits this far below the highest balance reached, and rises with it. Going below the floor fails the account.' },
      {
        area: 'trailingDrawdown', field: 'mode', kind: 'choice', label: 'The floor trails',
        help: 'When the highest balance is measured.',
        options: [
          ['end_of_day', 'At end of day', 'End of day: the floor moves only with the balance at each session close.'],
          ['intraday_realized', 'Intraday, closed trades', 'Intraday (realized): the floor moves after every closed trade, during the day.'],
          ['intraday_unrealized', 'Intraday, with open profit', 'Intraday (unrealized): open profit counts too, so a winning trade that gives back its gains still lifts the floor.'],
        ],
      },
      { area: 'trailingDrawdown', field: 'stopTrailingAtBalance', kind: 'number', min: 0, max: 20000000, nullable: 'never stops', label: 'Lock level: floor stops rising at (USD)', help: 'Lock level: once the floor reaches this balance it stays there (commonly the starting balance + $100). Empty: it never stops.' },
    ],
  },
  {
    legend: 'Daily loss limit',
    fields: [
      { area: 'dailyLossLimit', field: 'enabled', kind: 'boolean', label: 'Daily loss limit on', help: 'Limits the loss of one trading day (17:00 to 17:00 Chicago time).' },
      { area: 'dailyLossLimit', field: 'amount', kind: 'number', min: 50, max: 1000000, label: 'Daily loss limit (USD)', help: 'Closed and open losses of the day together; at most the trailing drawdown.' },
      {
        area: 'dailyLossLimit', field: 'type', kind: 'choice', label: 'When it is reached',
        help: 'What happens at the limit.',
        options: [
          ['soft', 'Soft: no new entries', 'Soft: no new entries for the day; open trades run to their stop or target.'],
          ['hard', 'Hard: flatten and stop', 'Hard: every position is flattened and trading stops until the next trading day.'],
        ],
      },
    ],
  },
  {
    legend: 'Prop-firm rules',
    fields: [
      { area: 'consistencyRule', field: 'enabled', kind: 'boolean', label: 'Consistency rule on', help: 'Consistency: no single day may make too large a share of your total profit; entries stop when the best day would pass it.' },
      { area: 'consistencyRule', field: 'maxBestDayPercent', kind: 'number', min: 10, max: 100, label: 'Best day at most (% of total profit)', help: 'The consistency limit.' },
      { area: 'payoutSecurity', field: 'enabled', kind: 'boolean', label: 'Payout security on', help: 'Payout security: holds payouts back until the balance is far enough above the start.' },
      { area: 'payoutSecurity', field: 'minBalanceAboveStart', kind: 'number', min: 0, max: 1000000, label: 'Balance above start before a payout (USD)', help: 'How far above the starting balance the account must be.' },
      {
        area: 'verification', field: 'phase', kind: 'choice', label: 'Account phase',
        help: 'Evaluation or funded.',
        options: [
          ['evaluation', 'Evaluation', 'Evaluation: you are working towards the profit target; once it is met, trades are kept small so they cannot undo the pass.'],
          ['funded', 'Funded', 'Funded: the evaluation is passed.'],
        ],
      },
      { area: 'verification', field: 'profitTarget', kind: 'number', min: 0, max: 1000000, label: 'Profit target (USD)', help: 'Profit over the starting balance that passes the evaluation.' },
      { area: 'verification', field: 'minTradingDays', kind: 'number', min: 0, max: 365, integer: true, label: 'Trading days needed', help: 'Distinct trading days with a closed trade before the evaluation can pass.' },
    ],
  },
  {
    legend: 'Open positions and limit entries',
    fields: [
      {
        area: 'positionChanges', field: 'reversals', kind: 'choice', label: 'An opposite alert while a position is open',
        help: 'A sell while you are long (or a reverse alert).',
        options: [
          ['refuse', 'Refuse it', 'The alert is refused and the record says why; your position stays as it is.'],
          ['allow', 'Reverse', 'The position is closed first; once that close has filled, the new side is entered.'],
        ],
      },
      {
        area: 'positionChanges', field: 'pyramiding', kind: 'choice', label: 'A same-side alert while a position is open',
        help: 'A second buy while you are long (or an add alert).',
        options: [
          ['refuse', 'Refuse it', 'The alert is refused and the record says why.'],
          ['allow', 'Add to the position', 'Added within every limit; the whole position is at most your contracts per order.'],
        ],
      },
      {
        area: 'positionChanges', field: 'outOfSync', kind: 'choice', label: "When the strategy's position and the account's disagree",
        help: 'An alert saying where the strategy was before it (prev_market_position) while the account holds something else.',
        options: [
          ['refuse', 'Refuse it', 'The alert is refused and the record says both positions.'],
          ['follow', 'Bring the account in line', "A flat account enters as sized; a position of ours the other way is closed first (when reversals are allowed); anything unclear is refused."],
        ],
      },
      { area: 'entryOrders', field: 'limitTimeoutSeconds', kind: 'number', min: 1, max: 86400, integer: true, nullable: 'works until filled', label: 'A limit entry waits at most (seconds)', help: 'A limit entry not filled in this time is cancelled (an alert\'s own limit_timeout wins). Empty: it works until filled.' },
      {
        area: 'entryOrders', field: 'onLimitTimeout', kind: 'choice', label: 'When a limit entry has waited its time',
        help: "An alert's own limit_timeout_action wins.",
        options: [
          ['cancel', 'Cancel it', 'The rest is cancelled; a part filled stays open with its stop and target.'],
          ['market', 'Send the rest at the market', "Re-sized at the market price within your limits; the stop and target cover the whole position. Refused, with the reason, when nothing fits."],
        ],
      },
    ],
  },
]

export const RISK_FIELDS: readonly RiskField[] = RISK_GROUPS.flatMap((group) => group.fields)

/** The input's id (`risk-engine-limits-maxOpenTrades`). */
export const fieldId = (field: Pick<RiskField, 'area' | 'field'>): string => `risk-engine-${field.area}-${field.field}`

/** Whether the field is used by the mode (and so shown and saved as edited). */
export const usedBy = (field: RiskField, mode: RiskMode): boolean => field.modes === undefined || field.modes.includes(mode)

export const labelOf = (field: RiskField, mode: RiskMode): string => field.labelIn?.[mode] ?? field.label

const BY_PATH = new Map(RISK_FIELDS.map((field) => [`${field.area}.${field.field}`, field]))

/**
 * A message of the settings service or the risk engine in the trader's words: every field named by its
 * dotted path (`antiMartingale.maxContracts`) becomes its label on the page ("Most contracts after wins"), and
 * a mode's name (`fixed_fraction`) its label.
 */
export function inTradersWords(message: string, mode: RiskMode): string {
  const text = message
    .replace(/^Invalid risk-engine configuration:\s*/, '')
    .replace(/\b(fixed_fraction|anti_martingale_pyramiding|fixed_contracts|alert_quantity)\b/g, (name: string) => `"${MODE_LABELS[name as RiskMode]}"`)
  return text.replace(/\b([a-zA-Z]+)\.([a-zA-Z]+)\b/g, (path: string) => {
    const field = BY_PATH.get(path)
    return field ? `"${labelOf(field, mode)}"` : path
  })
}

/** The first field a message names, so the page can point at it. */
export function fieldNamed(message: string): RiskField | undefined {
  for (const match of message.matchAll(/\b([a-zA-Z]+)\.([a-zA-Z]+)\b/g)) {
    const field = BY_PATH.get(match[0])
    if (field) return field
  }
  return undefined
}
