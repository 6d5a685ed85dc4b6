import t from 'tap'
import fc from 'fast-check'
import { OrderPathWorld, exitPlanScenarioArbitrary, summary, violations, type Scenario } from './order-path-model.ts'

// NOT PART OF THE SUITE YET (named .model.ts, outside tap's *.test.ts; run with `pnpm model:exit-plans`): it
// fails on main, about one run in three, on the defects its REGRESSIONS list (a partial close racing the
// target pairs' stops: the account ends on the other side until the reconciliation flattens it). EXIT_PLANS_ENABLED
// stays off until they are fixed; then this file becomes order-path-exit-plans.test.ts again, its cases no
// longer `open` (docs/decisions/targets-breakeven.md).
//
// The model of the order path (order-path.test.ts) with EXIT_PLANS_ENABLED on, before the flag may be
// turned on anywhere (docs/decisions/targets-breakeven.md): entries with two or three targets and their
// quantities, breakeven after TP1, partial closes, beside the model's entries, redeliveries, exits, market
// moves, broker faults and restarts. After each run, once settled and the keepers idle: the invariants of
// the model, and (f) the working stops never exceed the position and cover it, (g) no account holds the
// side opposite to its open trades. MODEL_RUNS sets the random runs (default 2, to keep CI cheap);
// MODEL_SEED and MODEL_PATH replay a case; MODEL_VERBOSE=1 logs each run. A failure prints its seed, path
// and scenario: add them to REGRESSIONS, replayed first, every time.

/**
 * Cases that once failed, replayed before the random runs (as in order-path.test.ts). `open`: the defect is
 * not fixed yet; skipped unless MODEL_OPEN=1 (each fails in about 20 s), so the file stays cheap meanwhile.
 */
const REGRESSIONS: readonly { seed: number; path: string; what: string; open?: true; scenario: Scenario }[] = [
  {
    seed: -617256376,
    path: '0',
    what: 'a partial close of 1 after TP1 filled left two pair stops (sl2, sl3) working for the one contract held; both filled at breakeven and the SHORT account ended LONG (+2 with a second close), flattened by the reconciliation as untracked',
    open: true,
    scenario: {
      instances: 2,
      commands: [
        { kind: 'entry', root: 'MES', side: 'SHORT', order: 'market', copies: 2, fault: null, plan: { quantities: [1, 2], breakeven: 2 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MES', steps: -3 },
        { kind: 'close-part', root: 'MES', closes: 'SHORT', part: { quantity: 1 } },
        { kind: 'price', root: 'MES', steps: -1 },
        { kind: 'price', root: 'MES', steps: 1 },
        { kind: 'price', root: 'MNQ', steps: 3 },
        { kind: 'entry', root: 'MNQ', side: 'SHORT', order: 'market', copies: 1, fault: null },
        { kind: 'entry', root: 'MES', side: 'SHORT', order: 'market', copies: 1, fault: null, plan: { quantities: [1, 1, 2], breakeven: 0 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MES', steps: 2 },
        { kind: 'close-part', root: 'MES', closes: 'SHORT', part: { quantity: 1 } },
        { kind: 'price', root: 'MES', steps: 1 },
        { kind: 'price', root: 'MES', steps: 2 },
        { kind: 'entry', root: 'MES', side: 'LONG', order: 'market', copies: 1, fault: 'drop_after', plan: { quantities: [1, 2], breakeven: 2 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MES', steps: 0 },
        { kind: 'price', root: 'MES', steps: -2 },
      ],
    },
  },
  {
    seed: -1114788195,
    path: '1',
    what: 'a 50% close after TP1 filled (3 held, TP1 1, close 1) cancelled tp3 but left sl3 working beside sl2; both filled at breakeven and the LONG account ended SHORT -1, flattened by the reconciliation as untracked',
    open: true,
    scenario: {
      instances: 1,
      commands: [
        { kind: 'entry', root: 'MNQ', side: 'LONG', order: 'market', copies: 1, fault: 'timeout', plan: { quantities: [1, 1, 1], breakeven: 0 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MNQ', steps: -3 },
        { kind: 'close-part', root: 'MNQ', closes: null, part: { percent: 50 } },
        { kind: 'price', root: 'MNQ', steps: 3 },
        { kind: 'price', root: 'MNQ', steps: 3 },
        { kind: 'liquidity', root: 'MNQ', lots: 2 },
        { kind: 'entry', root: 'MNQ', side: 'LONG', order: 'limit', copies: 1, fault: 'late' },
        { kind: 'entry', root: 'MNQ', side: 'SHORT', order: 'market', copies: 1, fault: null, plan: { quantities: [1, 2, 1], breakeven: 0 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MNQ', steps: -4 },
        { kind: 'price', root: 'MNQ', steps: 1 },
        { kind: 'price', root: 'MNQ', steps: -1 },
        { kind: 'entry', root: 'MNQ', side: 'SHORT', order: 'limit', copies: 2, fault: null },
        { kind: 'fault', endpoint: 'order/placeOSO', fault: 'held' },
        { kind: 'entry', root: 'MES', side: 'SHORT', order: 'market', copies: 1, fault: 'server_error_carried_out', plan: { quantities: [1, 2], breakeven: 2 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MES', steps: 2 },
        { kind: 'close-part', root: 'MES', closes: null, part: { quantity: 3 } },
        { kind: 'price', root: 'MES', steps: -1 },
      ],
    },
  },
  {
    seed: -1587473877,
    path: '1',
    what: 'the pair stops (no breakeven) closed the LONG 3 at the broker, then a partial close (of 4: capped to the 3 the trades still counted) sold 3 more: the account ended SHORT -2 / -3, flattened by the reconciliation as untracked',
    open: true,
    scenario: {
      instances: 2,
      commands: [
        { kind: 'entry', root: 'MNQ', side: 'LONG', order: 'market', copies: 1, fault: null, plan: { quantities: [1, 1], breakeven: null } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MNQ', steps: 0 },
        { kind: 'close-part', root: 'MNQ', closes: 'LONG', part: { quantity: 4 } },
        { kind: 'price', root: 'MNQ', steps: -2 },
        { kind: 'price', root: 'MES', steps: 1 },
        { kind: 'price', root: 'MES', steps: 2 },
        { kind: 'entry', root: 'MNQ', side: 'SHORT', order: 'market', copies: 1, fault: null, plan: { quantities: [2, 2, 2], breakeven: 2 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MNQ', steps: -2 },
        { kind: 'price', root: 'MNQ', steps: -2 },
        { kind: 'close-part', root: 'last', closes: null, part: { quantity: 1 } },
        { kind: 'close-part', root: 'last', closes: 'SHORT', part: { percent: 50 } },
        { kind: 'price', root: 'MNQ', steps: 2 },
      ],
    },
  },
]

const RUNS = Number(process.env.MODEL_RUNS ?? 2)

async function holds(scenario: Scenario): Promise<void> {
  const world = await OrderPathWorld.open(scenario.instances, { exitPlans: true })
  try {
    for (const command of scenario.commands) await world.run(command)
    await world.settle()
    const broken = await violations(world)
    if (process.env.MODEL_VERBOSE) t.comment(`${JSON.stringify(scenario)}\n${await summary(world)}`)
    if (broken.length > 0) throw new Error(broken.join('\n'))
  } finally {
    await world.close()
  }
}

const property = fc.asyncProperty(exitPlanScenarioArbitrary, holds)

for (const regression of REGRESSIONS) {
  const skip = regression.open === true && !process.env.MODEL_OPEN ? 'an open defect: replay it with MODEL_OPEN=1' : false
  t.test(`regression seed ${regression.seed} path ${regression.path}: ${regression.what}`, { skip }, async (t) => {
    const { seed, path, scenario } = regression
    const generated = fc.sample(exitPlanScenarioArbitrary, { seed, path, numRuns: 1 })[0]
    if (JSON.stringify(generated) === JSON.stringify(scenario)) {
      await t.resolves(fc.assert(property, { seed, path, numRuns: 1, endOnFailure: true }), 'replayed by its seed and path')
    } else {
      await t.resolves(fc.assert(property, { examples: [[scenario]], numRuns: 1, endOnFailure: true }), 'the recorded scenario replayed (the arbitraries changed since it was found)')
    }
  })
}

t.test(`${RUNS} random runs of the order path with exit plans keep its invariants`, async (t) => {
  const seed = process.env.MODEL_SEED === undefined ? Date.now() ^ (Math.random() * 0x100000000) : Number(process.env.MODEL_SEED)
  const started = Date.now()
  const details = await fc.check(property, { numRuns: RUNS, seed, path: process.env.MODEL_PATH, endOnFailure: true })
  t.comment(`${details.numRuns} runs in ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${seed}`)
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)
  t.notOk(details.failed, details.failed ? `seed ${details.seed}, path "${details.counterexamplePath}": ${error}\n${JSON.stringify(details.counterexample)}` : 'every run kept the invariants')
})
