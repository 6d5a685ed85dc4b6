// Risk engine cost per entry alert for 1,000 live users: for each user, the account state from their
// closed trades summed per trading day (as Postgres hands them to the connector), the front-month contract of the alert's symbol and the sizing decision, all in process.
// Bar: under 500 ms for 1,000 users with 200 closed trades each (a quarter of the entry flow's 2 s bar for 1,000 orders).
// Workspace packages by path: the root package does not depend on them.
import { frontMonthContract } from '@signals/instruments'
import { closedTradingDays, DEFAULT_RISK_ENGINE_CONFIG, deriveAccountState, sizeEntry, type TradeHistory } from '@signals/risk-engine'

const USERS = 1_000
const RUNS = 5
const BAR_MS = 500

const out = (line = '') => process.stdout.write(`${line}\n`)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const NOW = new Date('2026-11-23T15:00:00Z')

function historyOf(user: number, trades: number): TradeHistory {
  const closedTrades = Array.from({ length: trades }, (_, index) => ({
    pnl: (((user + index) % 9) * 41.5 - 150).toFixed(2),
    closedAt: new Date(NOW.getTime() - (trades - index) * 3 * 3_600_000 - user * 1_000),
  }))
  return { brokerBalance: null, closedDays: closedTradingDays(closedTrades), openTrades: [{ root: 'ES', side: 'LONG', quantity: 1, entryPrice: '6000', openPnl: '25' }] }
}

function sizeForEveryUser(histories: TradeHistory[]): { ms: number; sized: number } {
  const started = performance.now()
  let sized = 0
  for (const history of histories) {
    const account = deriveAccountState(DEFAULT_RISK_ENGINE_CONFIG, history, NOW)
    const dated = frontMonthContract('CME_MINI:MNQ1!', NOW)
    const decision = sizeEntry({
      config: DEFAULT_RISK_ENGINE_CONFIG,
      account,
      contract: { root: dated?.root ?? 'MNQ', pointValue: '2', tickSize: '0.25' },
      alert: { side: 'LONG', orderType: 'market', entryPrice: '21000.25', stopPrice: '20950', targetPrice: '21100.5', quantity: null },
      market: { price: '21000.25' },
      caps: { platformMaxContracts: 50, maxContracts: null },
    })
    if (decision.kind === 'size') sized += 1
  }
  return { ms: performance.now() - started, sized }
}

out('## Risk engine: sizing one entry alert for 1,000 users')
out()
out('| closed trades per user | trading days | median of 5 (ms) | per user (µs) | sized |')
out('|---|---|---|---|---|')
let passed = true
for (const trades of [50, 200, 1_000]) {
  const histories = Array.from({ length: USERS }, (_, user) => historyOf(user, trades))
  sizeForEveryUser(histories) // warm-up
  const runs = Array.from({ length: RUNS }, () => sizeForEveryUser(histories))
  const ms = median(runs.map((run) => run.ms))
  out(`| ${trades} | ${histories[0]?.closedDays.length} | ${ms.toFixed(1)} | ${((ms * 1000) / USERS).toFixed(0)} | ${runs[0]?.sized} |`)
  if (trades === 200 && ms >= BAR_MS) passed = false
}
out()
out(`Bar: 1,000 users with 200 closed trades each under ${BAR_MS} ms: ${passed ? 'PASS' : 'FAIL'}`)
process.exit(passed ? 0 : 1)
