import t from 'tap'
import { exitPlanScenarioArbitrary, runModel, type Regression } from './order-path-model.ts'

// The model of the order path (order-path.test.ts) with EXIT_PLANS_ENABLED on, before the flag may be
// turned on anywhere (docs/decisions/targets-breakeven.md): entries with two or three targets and their
// quantities, breakeven after TP1, partial closes, beside the model's entries, redeliveries, exits, market
// moves, broker faults and restarts; send faults aimed at the entries' target pairs, stops and closes
// (answered late or never while carried out; MODEL_SEND_FAULTS per entry at most, 0: none), and limit
// entries resting and filling in parts while a partial close or a source exit goes on: these two only with
// MODEL_ANSWER_FAULTS=1 (they find a HIGH defect not fixed yet; CI runs without them until it is). After each run,
// once settled and the keepers idle: the invariants of the model, and (f) the working stops never exceed the position and cover it, (g) no account holds the
// side opposite to its open trades. MODEL_RUNS sets the random runs (default 2, to keep CI cheap);
// MODEL_SEED and MODEL_PATH replay a case; MODEL_VERBOSE=1 logs each run. A failure prints its seed, path
// and scenario: add them to REGRESSIONS, replayed first, every time (`open: true` while the defect is not
// fixed: skipped unless MODEL_OPEN=1).

/** Cases that once failed, replayed before the random runs (as in order-path.test.ts). */
const REGRESSIONS: readonly Regression[] = [
  {
    seed: -617256376,
    path: '0',
    what: 'a partial close of 1 after TP1 filled left two pair stops (sl2, sl3) working for the one contract held; both filled at breakeven and the SHORT account ended LONG (+2 with a second close), flattened by the reconciliation as untracked (fixed: the cut sized from the trade read beside its applied fills; the close sized again from the broker after the cut)',
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
    what: 'a 50% close after TP1 filled (3 held, TP1 1, close 1) cancelled tp3 but left sl3 working beside sl2; both filled at breakeven and the LONG account ended SHORT -1, flattened by the reconciliation as untracked (fixed: the cut sized from the trade read beside its applied fills; the close sized again from the broker after the cut; still about 1 replay in 7 under load: the close ran while the keeper was sending the pairs, between the stop shrunk for pair 2 and the pair sent, and sold that contract; fixed: a close waits while a pair is on its way, close-pairs-in-flight.test.ts)',
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
    what: 'the pair stops (no breakeven) closed the LONG 3 at the broker, then a partial close (of 4: capped to the 3 the trades still counted) sold 3 more: the account ended SHORT -2 / -3, flattened by the reconciliation as untracked (fixed: the close sized again from the broker after its cut, nothing sent when none is left)',
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
  {
    seed: -495680393,
    path: '11',
    what: 'LONG-only MES entries with send faults (pairs answered never / 503 carried out / late, a stop move late, a close\'s single order late) and a limit entry resting 1 lot per price while a TP exit closed LONG: an account ended SHORT -1 MESZ6 with no open trade, flattened by the reconciliation as untracked (replays: u-0, then u-1). On replay (account 9001): sig-8 LONG 3 held; a partial close\'s pc-2 (Sell 1) was sent with the placeorder send fault \'late\' (carried out 2.5 s later, past the 1 s client timeout: outcome unknown); the TP exit\'s liquidation (untagged Sell 3) closed the 3 meanwhile; then the broker carried pc-2 out: -1 (fixed: an exit, or another close, waits while a close whose outcome is unknown may still land: positions/close-unknown-exit.test.ts)',
    scenario: {
      instances: 2,
      commands: [
        { kind: 'entry', root: 'MES', side: 'LONG', order: 'market', copies: 1, fault: null, sends: [{ endpoint: 'order/placeOCO', skip: 2, fault: 'server_error_carried_out' }, { endpoint: 'order/placeOCO', skip: 1, fault: 'answer_never' }], plan: { quantities: [2, 1], breakeven: 2 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MES', steps: -1 },
        { kind: 'price', root: 'MES', steps: -4 },
        { kind: 'price', root: 'MES', steps: -2 },
        { kind: 'close-part', root: 'MNQ', closes: 'SHORT', part: { quantity: 1 } },
        { kind: 'wait', ms: 1688 },
        { kind: 'entry', root: 'MNQ', side: 'LONG', order: 'market', copies: 1, fault: null, sends: [{ endpoint: 'order/placeOSO', skip: 2, fault: 'late' }, { endpoint: 'order/placeOCO', skip: 0, fault: 'late' }], plan: { quantities: [1, 2], breakeven: 0 } },
        { kind: 'entry', root: 'MES', side: 'LONG', order: 'market', copies: 1, fault: 'held', sends: [{ endpoint: 'order/placeOCO', skip: 0, fault: 'drop_after' }], plan: { quantities: [2, 1], breakeven: 0 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MES', steps: -3 },
        { kind: 'entry', root: 'MES', side: 'LONG', order: 'market', copies: 1, fault: 'drop_after', sends: [{ endpoint: 'order/placeOCO', skip: 2, fault: 'server_error_carried_out' }, { endpoint: 'order/modifyorder', skip: 0, fault: 'late' }], plan: { quantities: [1, 2], breakeven: 2 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MES', steps: 3 },
        { kind: 'close-part', root: 'MES', closes: null, part: { quantity: 1 } },
        { kind: 'price', root: 'MES', steps: 2 },
        { kind: 'price', root: 'MES', steps: 2 },
        { kind: 'liquidity', root: 'MES', lots: 1 },
        { kind: 'entry', root: 'MES', side: 'LONG', order: 'limit', copies: 2, fault: null, sends: [{ endpoint: 'order/placeorder', skip: 0, fault: 'late' }], plan: { quantities: [2, 1], breakeven: 0 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MES', steps: -2 },
        { kind: 'exit', root: 'MES', result: 'TP', closes: 'LONG' },
        { kind: 'wait', ms: 32 },
        { kind: 'price', root: 'MES', steps: 0 },
        { kind: 'liquidity', root: 'MES', lots: null },
        { kind: 'exit', root: 'last', result: 'SL', closes: 'SHORT' },
        { kind: 'liquidity', root: 'MNQ', lots: 1 },
      ],
    },
  },
  {
    seed: 2012554249,
    path: '3',
    what: 'a SHORT MES account ended LONG +1 with no open trade, flattened by the reconciliation as untracked (invariant (e)): a reversal\'s close liquidated the SHORT while the keeper\'s first pair (placeOCO, held at the broker) was on its way; carried out after, its target marketable, it bought 1 (fixed: the liquidation waits while a pair is on its way, reversal-pair-in-flight.test.ts)',
    scenario: {
      instances: 2,
      commands: [
        { kind: 'entry', root: 'MES', side: 'SHORT', order: 'market', copies: 2, fault: null, plan: { quantities: [2, 2], breakeven: 2 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MES', steps: 1 },
        { kind: 'close-part', root: 'MES', closes: 'SHORT', part: { quantity: 4 } },
        { kind: 'entry', root: 'MNQ', side: 'LONG', order: 'limit', copies: 1, fault: 'timeout', sends: [{ endpoint: 'order/placeOCO', skip: 0, fault: 'held' }, { endpoint: 'order/modifyorder', skip: 2, fault: 'answer_late' }] },
        { kind: 'liquidity', root: 'MES', lots: 1 },
        { kind: 'entry', root: 'MES', side: 'LONG', order: 'limit', copies: 2, fault: 'timeout', sends: [{ endpoint: 'order/placeOSO', skip: 1, fault: 'server_error_carried_out' }] },
        { kind: 'quiet' },
        { kind: 'price', root: 'MES', steps: -2 },
        { kind: 'close-part', root: 'MES', closes: null, part: { quantity: 3 } },
        { kind: 'price', root: 'MES', steps: 0 },
        { kind: 'liquidity', root: 'MES', lots: null },
        { kind: 'price', root: 'MES', steps: -2 },
        { kind: 'price', root: 'MES', steps: -4 },
        { kind: 'close-part', root: 'MNQ', closes: null, part: { percent: 25 } },
        { kind: 'liquidity', root: 'MES', lots: 1 },
        { kind: 'entry', root: 'MES', side: 'LONG', order: 'limit', copies: 2, fault: 'late', sends: [{ endpoint: 'order/placeOCO', skip: 0, fault: 'drop_after' }, { endpoint: 'order/placeOCO', skip: 2, fault: 'server_error_carried_out' }], plan: { quantities: [1, 2, 1], breakeven: 0 } },
        { kind: 'quiet' },
        { kind: 'price', root: 'MES', steps: -2 },
        { kind: 'exit', root: 'MES', result: 'Exit', closes: null },
        { kind: 'wait', ms: 296 },
        { kind: 'price', root: 'MES', steps: 0 },
        { kind: 'price', root: 'MES', steps: 0 },
        { kind: 'liquidity', root: 'MES', lots: null },
        { kind: 'price', root: 'MES', steps: -4 },
        { kind: 'price', root: 'MES', steps: 8 },
      ],
    },
  },
]

runModel(t, { arbitrary: exitPlanScenarioArbitrary, regressions: REGRESSIONS, runs: Number(process.env.MODEL_RUNS ?? 2), world: { exitPlans: true }, what: 'the order path with exit plans' })
