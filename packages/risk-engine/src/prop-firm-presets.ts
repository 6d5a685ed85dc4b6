import type { ConfigFieldValues } from './config-fields.ts'

/** Where a preset's figure comes from; `readOn` is the date our reference states for reading it. */
export interface PresetSource {
  url: string
  /** What the source says, in a few words (the figures the preset takes from it). */
  states: string
  /** true for a page that is not the firm's own (a review or rules site). */
  thirdParty: boolean
  readOn: string
}

export interface PropFirmPreset {
  id: string
  firm: string
  plan: string
  /** The plan's starting balance in USD; null when our sources give the rule but no account size (the trader's stays). */
  accountSize: number | null
  /** The fields the sources state, by dotted name; every other field keeps the trader's value. */
  fields: ConfigFieldValues
  /** The drawdown floor stops at the starting balance plus this (USD); set from the starting balance the preset ends with. */
  lockAboveStartingBalance: number | null
  /** The firm's rules our risk engine has no field for (or our sources give no figure for), said plainly. */
  notCovered: readonly string[]
  /** What the firm says about automated trading, as our sources state it. */
  automation: string
  sources: readonly PresetSource[]
}

// Every figure below is one our references state (../shared/reference/peers-projectx-prop-firms.md, "read
// 2026-11", and brokers-and-alerts.md §5, which gives no date of its own: the same survey, so 2026-11).
// A field the sources do not give is left out, never guessed. Table and reasons: docs/risk-engine-config.md.
const READ = '2026-11'
// A line of our reference marked third-party without naming its page.
const UNNAMED = 'third-party page not named in our reference (peers-projectx-prop-firms.md, prop-firm table)'

export const PROP_FIRM_PRESETS: readonly PropFirmPreset[] = [
  {
    id: 'topstep-50k',
    firm: 'Topstep',
    plan: 'Trading Combine 50K',
    accountSize: 50_000,
    fields: {
      'account.startingBalance': 50_000,
      'trailingDrawdown.amount': 2_000,
      'trailingDrawdown.mode': 'end_of_day',
      // "Once it reaches the starting balance it stops moving."
      'trailingDrawdown.stopTrailingAtBalance': 50_000,
      'dailyLossLimit.enabled': true,
      'dailyLossLimit.amount': 1_000,
      // Topstep's "soft breach" liquidates and pauses the account for the day: our hard limit (flatten, stop for the session).
      'dailyLossLimit.type': 'hard',
      'consistencyRule.enabled': true,
      // The firm's own (older) page says 40 %; 2026 third-party pages say 50 % (uncertain): the stricter one.
      'consistencyRule.maxBestDayPercent': 40,
      'verification.phase': 'evaluation',
    },
    lockAboveStartingBalance: null,
    notCovered: [
      'Profit target and contract limit: not stated in our sources (your values stay).',
      'The trading day ends at 15:10 Chicago (the day runs 5:00 pm to 3:10 pm CT): no field here.',
      'On TopstepX the daily loss limit is a personal one, trailing realized or unrealized pnl: our limit counts closed and open pnl.',
      'Express Funded payouts (up to 50 % of the balance after 5 winning days of at least $200): no field.',
      'No VPS or VPN; API orders are final.',
    ],
    automation: 'API bots allowed through TopstepX; no VPS/VPN.',
    sources: [
      { url: 'https://help.topstep.com/en/articles/8284204', states: 'Maximum Loss Limit trails the end-of-day balance high by $2,000 on the 50K and stops once it reaches the starting balance; breaching it intraday liquidates', thirdParty: false, readOn: READ },
      { url: 'https://propfirmapp.com', states: 'daily loss limit $1,000 on the 50K (soft breach, pauses trading for the day)', thirdParty: true, readOn: READ },
      { url: 'https://help.futures.topstep.com', states: 'Prohibited Conduct page: daily loss limit is a soft breach, auto-liquidated; the day runs 5:00 pm to 3:10 pm CT', thirdParty: false, readOn: READ },
      { url: 'https://help.futures.topstep.com', states: 'Consistency Target page (article 4405772379155): best day below 40 % of total profit (older page; 50 % in 2026 third-party pages, uncertain)', thirdParty: false, readOn: READ },
      { url: 'https://help.topstep.com/en/articles/10490293', states: 'on TopstepX the daily loss limit became a personal one (realized or unrealized)', thirdParty: false, readOn: READ },
    ],
  },
  {
    id: 'apex-intraday-trail',
    firm: 'Apex Trader Funding',
    plan: 'Intraday Trail evaluation (rules of 1 Mar 2026)',
    accountSize: null,
    fields: {
      'trailingDrawdown.mode': 'intraday_unrealized',
      'dailyLossLimit.enabled': false,
      'consistencyRule.enabled': true,
      'consistencyRule.maxBestDayPercent': 50,
      'verification.phase': 'evaluation',
    },
    lockAboveStartingBalance: null,
    notCovered: [
      'Account sizes, drawdown amounts, profit targets and contract limits: not stated in our sources (your values stay).',
      'The 50 % consistency is checked at payout; ours refuses entries for the day once today reaches the share (stricter).',
      'Payouts need 5 qualifying days and a $500 minimum: no field.',
      'Trades must carry stops; no "small target, huge risk": no field (our fixed_fraction mode requires a stop).',
    ],
    automation: 'No automation of any kind, semi-automated copy or algo included (third-party, "verified from support").',
    sources: [
      { url: 'https://damnpropfirms.com/?p=12440', states: 'Intraday Trail: real time, unrealized gains included, no daily loss limit in the evaluation; payouts: 50 % consistency, 5 qualifying days, $500 minimum', thirdParty: true, readOn: READ },
      { url: 'https://tradingstrategy.world/apex-trader-funding-complete-guide', states: 'the two products of 1 Mar 2026: Intraday Trail and EOD Trail', thirdParty: true, readOn: READ },
      { url: 'https://fundedwiki.com/apex-trader-funding/prohibited-strategies', states: 'no automation of any kind', thirdParty: true, readOn: READ },
      { url: 'https://apextraderfunding.com/help-center/getting-started/prohibited-activities', states: 'must trade with stops; no small target with huge risk', thirdParty: false, readOn: READ },
    ],
  },
  {
    id: 'apex-eod-trail',
    firm: 'Apex Trader Funding',
    plan: 'EOD Trail evaluation (rules of 1 Mar 2026)',
    accountSize: null,
    fields: {
      'trailingDrawdown.mode': 'end_of_day',
      'dailyLossLimit.enabled': true,
      'consistencyRule.enabled': true,
      'consistencyRule.maxBestDayPercent': 50,
      'verification.phase': 'evaluation',
    },
    lockAboveStartingBalance: null,
    notCovered: [
      'The daily loss limit applies, but our sources give no amount: yours stays.',
      'Account sizes, drawdown amounts, profit targets and contract limits: not stated in our sources (your values stay).',
      'The 50 % consistency is checked at payout; ours refuses entries for the day once today reaches the share (stricter).',
      'Payouts need 5 qualifying days and a $500 minimum: no field.',
    ],
    automation: 'No automation of any kind, semi-automated copy or algo included (third-party, "verified from support").',
    sources: [
      { url: 'https://damnpropfirms.com/?p=12440', states: 'EOD Trail: recalculated at the close, with a daily loss limit in the evaluation; payouts: 50 % consistency', thirdParty: true, readOn: READ },
      { url: 'https://tradingstrategy.world/apex-trader-funding-complete-guide', states: 'the two products of 1 Mar 2026: Intraday Trail and EOD Trail', thirdParty: true, readOn: READ },
      { url: 'https://fundedwiki.com/apex-trader-funding/prohibited-strategies', states: 'no automation of any kind', thirdParty: true, readOn: READ },
    ],
  },
  {
    id: 'lucid-flex-funded',
    firm: 'Lucid Trading',
    plan: 'Flex funded',
    accountSize: null,
    fields: {
      'trailingDrawdown.mode': 'end_of_day',
      'consistencyRule.enabled': false,
      'verification.phase': 'funded',
    },
    lockAboveStartingBalance: 100,
    notCovered: [
      'Account sizes, drawdown amounts, daily loss and contract limits: not stated in our sources (your values stay).',
      'Micro-scalping (over half the profit from trades held 5 seconds or less) forfeits profit: no field.',
      'Flat by 4:45 pm New York: no field here.',
      'Each strategy must be unique, not copied across accounts: no field.',
    ],
    automation: 'Bots and copiers allowed; each strategy unique, not copied across accounts.',
    sources: [
      { url: 'https://fundedwiki.com/lucid-trading', states: 'end-of-day trailing maximum loss limit that locks at the initial balance + $100; bots allowed', thirdParty: true, readOn: READ },
      { url: 'https://puravidaedge.com/blog/how-to-pass-lucid-trading', states: 'micro-scalping rule; flat by 4:45 pm ET', thirdParty: true, readOn: READ },
      { url: UNNAMED, states: 'Flex funded: no consistency rule', thirdParty: true, readOn: READ },
    ],
  },
  {
    id: 'tpt-test',
    firm: 'Take Profit Trader',
    plan: 'Test',
    accountSize: null,
    fields: {
      'trailingDrawdown.mode': 'end_of_day',
      'consistencyRule.enabled': true,
      'consistencyRule.maxBestDayPercent': 50,
      'verification.phase': 'evaluation',
    },
    lockAboveStartingBalance: null,
    notCovered: [
      'Account sizes, drawdown amounts, daily loss, profit targets and contract limits: not stated in our sources (your values stay).',
      'Limit up/down forfeits; no overnight positions: no field here.',
    ],
    automation: '"No trading bots or algos" (third-party).',
    sources: [
      { url: 'https://takeprofittrader.crunch.help/test-rules/rule-6-be-consistent', states: '50 % consistency in the Test', thirdParty: false, readOn: READ },
      { url: UNNAMED, states: 'Test drawdown trails end of day', thirdParty: true, readOn: READ },
      { url: 'https://smartpropfirm.com/firms/takeprofittrader', states: 'no trading bots or algos', thirdParty: true, readOn: READ },
    ],
  },
  {
    id: 'tpt-pro-plus',
    firm: 'Take Profit Trader',
    plan: 'PRO+',
    accountSize: null,
    fields: {
      // "intraday including open positions"
      'trailingDrawdown.mode': 'intraday_unrealized',
      'verification.phase': 'funded',
    },
    lockAboveStartingBalance: null,
    notCovered: [
      'Account sizes, drawdown amounts, daily loss, consistency and contract limits: not stated in our sources (your values stay).',
      'Flat from 1 minute before to 1 minute after FOMC, NFP, CPI, crude inventories (CL) and bond auctions: no field here.',
      'PRO: at most 50 executions a day: no field here.',
      'No overnight positions: no field here.',
    ],
    automation: '"No trading bots or algos" (third-party).',
    sources: [
      { url: 'https://takeprofittrader.crunch.help/proplus-account/pro-account-rules', states: 'PRO+ drawdown intraday including open positions; flat around FOMC, NFP, CPI, CL inventories, bond auctions', thirdParty: false, readOn: READ },
      { url: 'https://takeprofittrader.crunch.help/pro-account/are-the-rules-the-same', states: 'PRO: at most 50 executions a day', thirdParty: false, readOn: READ },
    ],
  },
  {
    id: 'mff-starter-funded',
    firm: 'MyFundedFutures',
    plan: 'Starter funded',
    accountSize: null,
    fields: { 'consistencyRule.enabled': true, 'consistencyRule.maxBestDayPercent': 40, 'verification.phase': 'funded' },
    lockAboveStartingBalance: null,
    notCovered: [
      'Drawdown "varies by plan"; account sizes, daily loss and contract limits: not stated in our sources (your values stay).',
      'Tier-1 news: flat 2 minutes either side on Starter and Expert funded (third-party): no field here.',
    ],
    automation: 'Conflicting: the firm (older) allows automation that does not exploit sim fills; 2026 third-party pages ban fully automated trading.',
    sources: [
      { url: UNNAMED, states: 'consistency 40 % Starter funded; Tier-1 news 2 minutes either side on Starter and Expert funded', thirdParty: true, readOn: READ },
      { url: 'https://propfirmsyncer.com/futures/myfundedfutures', states: 'fully automated trading banned, semi-automated allowed (2026)', thirdParty: true, readOn: READ },
      { url: 'https://intercom.help/myfundedfutures/en/articles/8444599', states: 'automation allowed if it does not exploit sim fills; no HFT', thirdParty: false, readOn: READ },
    ],
  },
  {
    id: 'mff-milestone',
    firm: 'MyFundedFutures',
    plan: 'Milestone',
    accountSize: null,
    fields: { 'consistencyRule.enabled': true, 'consistencyRule.maxBestDayPercent': 20 },
    lockAboveStartingBalance: null,
    notCovered: [
      'Drawdown "varies by plan"; account sizes, daily loss, contract limits and the phase: not stated in our sources (your values stay).',
    ],
    automation: 'Conflicting: the firm (older) allows automation that does not exploit sim fills; 2026 third-party pages ban fully automated trading.',
    sources: [
      { url: UNNAMED, states: 'consistency 20 % Milestone', thirdParty: true, readOn: READ },
      { url: 'https://intercom.help/myfundedfutures/en/articles/8444599', states: 'automation allowed if it does not exploit sim fills; no HFT', thirdParty: false, readOn: READ },
    ],
  },
  {
    id: 'mff-starter-plus-evaluation',
    firm: 'MyFundedFutures',
    plan: 'Starter+ evaluation',
    accountSize: null,
    fields: { 'consistencyRule.enabled': true, 'consistencyRule.maxBestDayPercent': 50, 'verification.phase': 'evaluation' },
    lockAboveStartingBalance: null,
    notCovered: [
      'Drawdown "varies by plan"; account sizes, daily loss, profit targets and contract limits: not stated in our sources (your values stay).',
    ],
    automation: 'Conflicting: the firm (older) allows automation that does not exploit sim fills; 2026 third-party pages ban fully automated trading.',
    sources: [
      { url: UNNAMED, states: 'consistency 50 % Starter+ evaluation', thirdParty: true, readOn: READ },
      { url: 'https://intercom.help/myfundedfutures/en/articles/8444599', states: 'automation allowed if it does not exploit sim fills; no HFT', thirdParty: false, readOn: READ },
    ],
  },
]

export function propFirmPreset(id: string): PropFirmPreset | undefined {
  return PROP_FIRM_PRESETS.find((preset) => preset.id === id)
}
