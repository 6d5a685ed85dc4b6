import t from 'tap'
import { eventually, fillOneMoreAtCancel, targetRacedByOneMoreFill, netMnq, partialCloses, reasonOf } from './helper.ts'

// Stop 37 review, MED (docs/decisions/projectx-adapter.md, "Stop 37's review"): a late fill's close at the
// market refused by ProjectX while the position was still held kept its claim: never tried again, the contract
// held without a stop, and the record said it "may not be closed" where it certainly was not.

t.test('a late close refused while the contract is still held is tried again shortly: closed at the market, and the record says what happened', async (t) => {
  // The first cancel after the target closed the trade: the entry fills one more first, and the late close is refused once.
  const race = fillOneMoreAtCancel((tag) => tag?.endsWith('.own') === true, (broker) => broker.interfere('Position/partialCloseContract', { kind: 'refusal', failureReason: '2', failureText: 'Trading is unavailable for a moment' }, 1))
  const { broker, db, record } = await targetRacedByOneMoreFill(t, race)
  await eventually(() => partialCloses(broker) >= 1)
  // Not thrown on time-out: the asserts below say what is missing.
  await eventually(() => netMnq(broker) === 0, 20_000).catch(() => undefined)
  t.equal(netMnq(broker), 0, 'the late contract is closed: flat')
  t.equal(partialCloses(broker), 2, 'refused once, then closed at the market')
  const plan = await db.selectFrom('own_leg_plans').select(['filled', 'closed_filled', 'flattened']).where('tag', '=', `sig-${record.id}`).executeTakeFirstOrThrow()
  t.same(plan, { filled: 2, closed_filled: 1, flattened: 1 }, 'the plan says one contract was late, and closed')
  await eventually(async () => /1 closed at the market/.test(await reasonOf(db, record.id)), 5_000).catch(() => undefined)
  const reason = await reasonOf(db, record.id)
  t.notMatch(reason, /may not be closed/, 'the record never says the refused close may have closed it')
  t.match(reason, /had no stop and is not closed yet: .*Trading is unavailable for a moment.*tried again/, 'the record says it was refused, and tried again')
  t.match(reason, /had no stop: 1 closed at the market/, 'and that it was closed at the market')
})
