import t from 'tap'
import { DEFAULT_RISK_ENGINE_CONFIG, additionRoom, closeInAccount, partialCloseQuantity, positionChange, type RiskEngineConfig } from '../src/index.ts'

const withChanges = (reversals: 'refuse' | 'allow', pyramiding: 'refuse' | 'allow'): RiskEngineConfig => ({ ...DEFAULT_RISK_ENGINE_CONFIG, positionChanges: { reversals, pyramiding } })
const long = (quantity: number) => ({ root: 'MNQ', side: 'LONG' as const, quantity: String(quantity), entryPrice: '21000' })

t.test('partial close sizes: whole contracts, never more than held, rounding down', async (t) => {
  const part = (quantity: number | null, percent: number | null, remaining: number | null) => ({ quantity, percent, remaining })
  t.same(partialCloseQuantity(5, part(2, null, null)), { kind: 'close', quantity: 2 })
  t.same(partialCloseQuantity(5, part(9, null, null)), { kind: 'close', quantity: 5 }, 'capped at the position')
  t.same(partialCloseQuantity(3, part(null, 50, null)), { kind: 'close', quantity: 1 }, '50% of 3 rounds down')
  t.same(partialCloseQuantity(4, part(null, 50, null)), { kind: 'close', quantity: 2 })
  t.same(partialCloseQuantity(3, part(null, 100, null)), { kind: 'close', quantity: 3 })
  t.match(partialCloseQuantity(1, part(null, 50, null)), { kind: 'none', reason: /50% of 1 contract\(s\) is less than one contract/ })
  t.same(partialCloseQuantity(5, part(null, null, 2)), { kind: 'close', quantity: 3 }, 'the strategy keeps 2')
  t.match(partialCloseQuantity(2, part(null, null, 3)), { kind: 'none', reason: /already at or below the 3 asked to remain/ })
  t.match(partialCloseQuantity(0, part(1, null, null)), { kind: 'none', reason: /no position is held/ })
  t.match(partialCloseQuantity(5, part(0.5, null, null)), { kind: 'none' }, 'half a contract closes nothing')
})

t.test('reverse and add by the account settings (defaults refuse, saying why)', async (t) => {
  const refuse = withChanges('refuse', 'refuse')
  const allow = withChanges('allow', 'allow')
  t.same(DEFAULT_RISK_ENGINE_CONFIG.positionChanges, { reversals: 'refuse', pyramiding: 'refuse', outOfSync: 'refuse' })
  t.match(positionChange(refuse, null, 'SHORT', [long(2)], 'MNQ'), { kind: 'refuse', code: 'reversal_not_allowed', reason: /A LONG MNQ position of 2 is open: a SHORT entry would reverse it/ })
  t.match(positionChange(refuse, 'reverse', null, [long(2)], 'MNQ'), { kind: 'refuse', code: 'reversal_not_allowed' })
  t.same(positionChange(allow, 'reverse', null, [long(2), long(1)], 'MNQ'), { kind: 'close_first', side: 'SHORT', closes: 'LONG', held: 3 })
  t.same(positionChange(allow, null, 'SHORT', [long(2)], 'MNQ'), { kind: 'close_first', side: 'SHORT', closes: 'LONG', held: 2 })
  t.same(positionChange(refuse, 'reverse', 'SHORT', [], 'MNQ'), { kind: 'enter', side: 'SHORT', adding: false }, 'reverse with nothing open: the entry the strategy wants')
  t.match(positionChange(allow, 'reverse', null, [], 'MNQ'), { kind: 'refuse', code: 'nothing_to_reverse' })
  t.match(positionChange(allow, 'reverse', 'LONG', [long(1)], 'MNQ'), { kind: 'refuse', code: 'nothing_to_reverse', reason: /already LONG/ })
  t.match(positionChange(refuse, 'add', null, [long(1)], 'MNQ'), { kind: 'refuse', code: 'pyramid_not_allowed', reason: /positionChanges\.pyramiding is "refuse"/ })
  t.match(positionChange(allow, 'add', null, [], 'MNQ'), { kind: 'refuse', code: 'nothing_to_add' })
  t.match(positionChange(allow, 'add', 'SHORT', [long(1)], 'MNQ'), { kind: 'refuse', code: 'add_wrong_side' })
  t.same(positionChange(allow, 'add', null, [long(1)], 'MNQ'), { kind: 'enter', side: 'LONG', adding: true })
  t.same(positionChange(allow, null, 'LONG', [long(1)], 'MNQ'), { kind: 'enter', side: 'LONG', adding: true })
  t.same(positionChange(refuse, null, 'LONG', [long(1)], 'MNQ'), { kind: 'enter', side: 'LONG', adding: false }, 'same side without pyramiding: the position gate decides, as before')
  const caps = { platformMaxContracts: 1_000, maxContracts: null }
  t.equal(additionRoom(allow, [long(2), long(2)], caps), 1, 'the whole position is held to maxContractsPerOrder (5)')
  t.equal(additionRoom(allow, [long(5)], caps), 0)
  // Every cap on one order holds the whole position, since its stop and target are orders of its size (review finding).
  t.equal(additionRoom(allow, [long(2)], { platformMaxContracts: 3, maxContracts: null }), 1, "the platform's ceiling")
  t.equal(additionRoom(allow, [long(2)], { platformMaxContracts: 1_000, maxContracts: 2 }), 0, "the risk strategy's maximum contracts")
})

t.test("closeInAccount: a multiplied source's quantity and size to keep, counted in the account's contracts", async (t) => {
  const asked = (quantity: number | null, remaining: number | null, percent: number | null = null) => ({ quantity, remaining, percent })
  t.same(closeInAccount(asked(1, null), ['2.0000', '2.0000']), { kind: 'asked', asked: asked(2, null) }, 'close 1 at x2 is 2')
  t.same(closeInAccount(asked(null, 1), ['3']), { kind: 'asked', asked: asked(null, 3) }, 'keep 1 at x3 is 3')
  t.same(closeInAccount(asked(null, null, 50), ['2', null]), { kind: 'asked', asked: asked(null, null, 50) }, 'a percentage is the same in both')
  t.same(closeInAccount(asked(2, null), [null, null]), { kind: 'asked', asked: asked(2, null) }, "the account's own sizing: as asked")
  t.same(closeInAccount(asked(2, null), []), { kind: 'asked', asked: asked(2, null) }, 'no trade: as asked (nothing to close is said later)')
  const mixed = closeInAccount(asked(1, null), ['2', null])
  t.equal(mixed.kind, 'none', 'trades sized by different rules are refused')
  t.match(mixed, { reason: /different rules \(x2, the account's own sizing\).*a percentage can/ })
  t.same(partialCloseQuantity(3, asked(null, 1.5)), { kind: 'close', quantity: 1 }, 'keep 1 at x1.5 keeps 2 of 3 (rounded up: never closes more than asked)')
})
