import t from 'tap'
import type { Outcome } from '../../scripts/soak/checks.ts'
import { renderReport, verdict, type SoakFigures } from '../../scripts/soak/report.ts'
import { slope } from '../../scripts/soak/samples.ts'

// The soak itself is not part of `pnpm test` (it runs for minutes); what decides its exit code is.

const cleanOutcome = (): Outcome => ({
  entriesAccepted: 2,
  entriesLost: [],
  entriesDoubled: [],
  resultsAccepted: 2,
  resultsLost: [],
  recordsByStatus: { placed: 3, refused: 1 },
  reasons: { 'A LONG MNQ trade is already open': 1 },
  closedBy: { TP: 1, 'Session End': 2 },
  ordersPerRecord: new Map([[1, 1], [2, 1], [3, 1]]),
  ordersWithoutRecord: 0,
  recordsWithTwoTrades: 0,
  tradesOpened: 3,
  tradesClosed: 3,
  tradesStillOpen: 0,
})

const figures = (outcome: Outcome, changes: Partial<SoakFigures> = {}): SoakFigures => ({
  minutes: 1,
  traders: 2,
  entriesPerSecond: 1,
  ingestInstances: 2,
  connectorInstances: 2,
  warmUpSeconds: 0,
  samples: [0, 30, 60].map((at) => ({ at, rssMiB: { ingest: 100 + at / 60 }, liveHeapMiB: { ingest: at === 30 ? null : 40 + at / 30 }, lag: 1, worstConsumer: { name: 'ALERTS/entry', lag: 1 } })),
  drainSeconds: 1,
  webhooks: { entryIds: ['e0', 'e1'], resultIds: ['r0', 'r1'], accepted: new Set(['e0', 'e1', 'r0', 'r1']), refused: new Map(), resends: 0 },
  api: new Map([['/api/alerts 200', 2]]),
  outcome,
  ...changes,
})

t.test('a clean run passes and its report says so, with every service and the figures', async (t) => {
  const result = verdict(figures(cleanOutcome()))
  t.same(result, { passed: true, problems: [] })
  const report = renderReport(figures(cleanOutcome()), result)
  t.match(report, /\| ingest \| 100\.0 \| 100\.0 \| 101\.0 \| 1\.00 \| 40\.0 \| 40\.0 \| 42\.0 \| too few samples \|/, 'RSS and heap after GC at start, after warm-up, at end, slope per minute (a sample without the heap is left out)')
  t.match(report, /\| lost \/ doubled \| \*\*0 \/ 0\*\* \|/)
  t.match(report, /\*\*PASS\*\*/)
})

t.test('a lost or doubled alert, a second order or trade, an open trade, a failed call or an undrained lag fails it', async (t) => {
  const cases: [string, SoakFigures, RegExp][] = [
    ['lost entry', figures({ ...cleanOutcome(), entriesLost: ['e1'] }), /1 entry alerts lost records \(e\.g\. e1\)/],
    ['doubled entry', figures({ ...cleanOutcome(), entriesDoubled: ['e0'] }), /1 entry alerts doubled records/],
    ['lost result', figures({ ...cleanOutcome(), resultsLost: ['r0'] }), /1 result alerts missing from the intake log/],
    ['two orders', figures({ ...cleanOutcome(), ordersPerRecord: new Map([[1, 2]]) }), /1 records with two or more orders/],
    ['two trades', figures({ ...cleanOutcome(), recordsWithTwoTrades: 1 }), /1 records opened two trades/],
    ['open trade', figures({ ...cleanOutcome(), tradesStillOpen: 2 }), /2 trades still open/],
    ['lag', figures(cleanOutcome(), { drainSeconds: null }), /did not drain/],
    ['webhook', figures(cleanOutcome(), { webhooks: { ...figures(cleanOutcome()).webhooks, refused: new Map([[503, 1]]) } }), /1 webhooks not answered 200 \(503: 1\)/],
    ['web API', figures(cleanOutcome(), { api: new Map([['/api/trades 502', 1]]) }), /web API failures \(\/api\/trades 502: 1\)/],
  ]
  for (const [label, input, problem] of cases) {
    const result = verdict(input)
    t.equal(result.passed, false, `${label} fails the soak`)
    t.match(result.problems.join('; '), problem, `${label} is named`)
    t.match(renderReport(input, result), /\*\*FAIL\*\*/)
  }
})

t.test('the memory trend is the least-squares slope', async (t) => {
  t.equal(slope([0, 1, 2, 3], [10, 12, 14, 16]), 2)
  t.equal(slope([0, 1, 2, 3], [10, 10, 10, 10]), 0)
  t.equal(slope([1], [5]), 0, 'one point has no trend')
  t.ok(Math.abs(slope([0, 1, 2], [1, 3, 2]) - 0.5) < 1e-12)
})
