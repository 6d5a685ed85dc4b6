import t from 'tap'
import { exitPlanOf } from '../../src/parsing/exit-plan.ts'
import { extractFields } from '../../src/parsing/fields.ts'

const long = { side: 'LONG', entryPrice: 21000, quantity: null } as const
const short = { side: 'SHORT', entryPrice: 21000, quantity: null } as const
const plan = (record: Record<string, unknown>, context: Parameters<typeof exitPlanOf>[1] = long) => exitPlanOf(extractFields(record), context)

t.test('no targets, no plan (a single tp stays the bracket target)', async (t) => {
  t.equal(plan({ tp: 21050 }), null)
  t.equal(plan({ tp: 0, breakeven: 0, advance_tp_sl: [] }), null, "PickMyTrade's zero defaults ask for nothing")
})

t.test('our names: tp1..tp3 with a quantity each, and breakeven after TP1', async (t) => {
  t.same(plan({ tp1: 21020, tp1_qty: 2, tp2: '21040', tp2_qty: '1', tp3: 21080, tp3_quantity: 1, breakeven_offset_ticks: 2 }), {
    targets: [{ price: 21020, quantity: 2 }, { price: 21040, quantity: 1 }, { price: 21080, quantity: 1 }],
    breakeven: { offsetTicks: 2 },
  })
  t.same(plan({ take_profit_1: 20980, take_profit_2: 20960, move_to_breakeven: true }, short), {
    targets: [{ price: 20980, quantity: null }, { price: 20960, quantity: null }],
    breakeven: { offsetTicks: 0 },
  }, 'without quantities each target takes an equal share; breakeven without an offset is the entry price')
  t.same(plan({ 'TP1': 21020, 'TP2': 21040, 'Breakeven After TP1': 'false' }), { targets: [{ price: 21020, quantity: null }, { price: 21040, quantity: null }], breakeven: null })
})

t.test("PickMyTrade's advance_tp_sl: one object per target, tp and quantity", async (t) => {
  t.same(plan({ tp: 0, advance_tp_sl: [{ tp: 21020, quantity: 1, sl: 0, dollar_tp: 0 }, { tp: 21040, quantity: 2 }] }), {
    targets: [{ price: 21020, quantity: 1 }, { price: 21040, quantity: 2 }],
    breakeven: null,
  })
})

t.test('quantities must add up to the quantity asked, when both are sent', async (t) => {
  t.throws(() => plan({ tp1: 21020, tp1_qty: 2, tp2: 21040, tp2_qty: 2 }, { ...long, quantity: 3 }), /tp1_qty.*add up to 4.*quantity is 3/)
  t.same(plan({ tp1: 21020, tp1_qty: 2, tp2: 21040, tp2_qty: 1 }, { ...long, quantity: 3 })?.targets.map((target) => target.quantity), [2, 1])
})

t.test('refused rather than guessed', async (t) => {
  t.throws(() => plan({ tp1: 21020 }), /TP1 alone.*send tp/)
  t.throws(() => plan({ tp1: 21020, tp3: 21060 }), /tp3 without tp2/)
  t.throws(() => plan({ tp: 21100, tp1: 21020, tp2: 21040 }), /tp and tp1.*not both/)
  t.throws(() => plan({ tp1: 21040, tp2: 21020 }), /TP2 \(21020\) must be further from the entry than TP1 \(21040\)/)
  t.throws(() => plan({ tp1: 20980, tp2: 21040 }), /TP1 \(20980\) is not above the LONG entry price 21000/)
  t.throws(() => plan({ tp1: 21020, tp2: 21040 }, short), /TP1 \(21020\) is not below the SHORT entry price 21000/)
  t.throws(() => plan({ tp1: 21020, tp1_qty: 1, tp2: 21040 }), /every target needs a quantity, or none/)
  t.throws(() => plan({ tp1: 21020, tp1_qty: 1.5, tp2: 21040, tp2_qty: 1 }), /tp1_qty must be a whole number of contracts/)
  t.throws(() => plan({ tp2_qty: 1, tp: 21040 }), /tp2_qty without tp2/)
  t.throws(() => plan({ breakeven_offset_ticks: 2, tp: 21040 }), /breakeven after TP1 needs several targets/)
  t.throws(() => plan({ tp1: 21020, tp2: 21040, breakeven_offset_ticks: -1 }), /breakeven_offset_ticks must be whole ticks from 0 to 1000/)
  t.throws(() => plan({ tp1: 21020, tp2: 21040, tp3: 21060, tp4: 21080 }), /at most three targets/)
  t.throws(() => plan({ breakeven: 10 }), /PickMyTrade's breakeven.*breakeven_offset_ticks/)
  t.throws(() => plan({ advance_tp_sl: [{ tp: 21020, quantity: 1, sl: 20990 }, { tp: 21040, quantity: 1 }] }), /advance_tp_sl\[0\]\.sl.*one stop covers the whole position/)
  t.throws(() => plan({ advance_tp_sl: [{ percentage_tp: 1, quantity: 1 }, { tp: 21040, quantity: 1 }] }), /advance_tp_sl\[0\]\.percentage_tp is not supported/)
  t.throws(() => plan({ advance_tp_sl: 'x' }), /advance_tp_sl must be a list of targets/)
  t.throws(() => plan({ advance_tp_sl: [{ tp: 21020 }], tp1: 21020, tp2: 21040 }), /advance_tp_sl and tp1.*not both/)
})

t.test('published on the entry, valid against the contract; results and instructions carry none', async (t) => {
  const { parseAlert } = await import('../../src/parsing/parse-alert.ts')
  const { normalizeAlert } = await import('../../src/parsing/normalize.ts')
  const { contract, NormalizedAlertV1 } = await import('@signals/contracts')
  const normalize = (payload: Record<string, unknown>) =>
    normalizeAlert(parseAlert(JSON.stringify(payload)), {}, { premiumIndicators: new Set(), receivedAt: '2026-11-26T12:00:00.000Z', sourceText: JSON.stringify(payload) })
  const entry = normalize({ symbol: 'MNQ1!', data: 'buy', price: 21000, sl: 20980, tp: 0, quantity: 3, advance_tp_sl: [{ tp: 21020, quantity: 2 }, { tp: 21040, quantity: 1 }], breakeven_offset_ticks: 1, user_id: 'u' })
  t.same(entry.exitPlan, { targets: [{ price: 21020, quantity: 2 }, { price: 21040, quantity: 1 }], breakeven: { offsetTicks: 1 } })
  t.equal(entry.tp, null, 'no single target beside them')
  t.equal(contract(NormalizedAlertV1).problem(entry), null, 'the published alert passes the contract')
  t.notOk('exitPlan' in normalize({ symbol: 'MNQ1!', data: 'buy', tp: 21020, user_id: 'u' }), 'a plain entry is unchanged')
  t.notOk('exitPlan' in normalize({ symbol: 'MNQ1!', action: 'exit', tp1: 21020, tp2: 21040 }), 'an exit places no targets')
  t.throws(() => normalize({ symbol: 'MNQ1!', data: 'buy', price: 21000, tp1: 21020, tp1_qty: 2, tp2: 21040, tp2_qty: 2, quantity: 3, user_id: 'u' }), /add up to 4/)
})
