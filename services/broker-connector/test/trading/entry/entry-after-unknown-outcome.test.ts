import t from 'tap'
import { eventually, publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, recordOf, settledRecord } from '../../trading-helper.ts'
import { netMnq } from '../positions/exit-helper.ts'

// The exit-plans model's seed 1916258657 path "1" (MODEL_ANSWER_FAULTS=1; targets-breakeven.md): an entry whose
// send the broker held past the outcome grace failed "outcome unknown"; a second entry in the contract came
// then and was placed; the first order landed after it and its record was turned placed: two trades where the
// account allows one, the position twice what the rules size.

const SHORT_GRACE = { overrides: { BROKER_REQUEST_TIMEOUT_MS: '1000', ENTRY_OUTCOME_GRACE_MS: '3000', ENTRY_MAX_AGE_MS: '3000', ENTRY_SWEEP_INTERVAL_MS: '200' } }

t.test('an entry failed "outcome unknown" whose order lands after a second entry in the contract: the position is never more than one entry sizes', async (t) => {
  const { broker, app, db } = await connectedTrader(t, SHORT_GRACE)
  broker.interfere('order/placeOSO', { kind: 'late' }, 1)
  const first = mnqEntry()
  await publishAlert(app, first)
  t.match(await settledRecord(db, first.alertId, 20_000), { status: 'failed', refusal_code: 'outcome_unknown' }, 'the first entry failed "outcome unknown" while its order is held at the broker')
  const second = mnqEntry()
  await publishAlert(app, second)
  t.match(await settledRecord(db, second.alertId, 20_000), { status: 'refused', reason: /An earlier LONG MNQ entry's outcome is unknown \(its order may still reach the broker\)/ }, 'the second entry is refused, saying why')
  // The broker carries the first entry out now.
  t.equal(broker.release('order/placeOSO'), 1)
  await eventually(async () => (await recordOf(db, first.alertId)).status === 'placed', 15_000).catch(() => undefined)
  await eventually(() => netMnq(broker) >= 5, 10_000)
  const records = [await recordOf(db, first.alertId), await recordOf(db, second.alertId)].map((record) => `${record.status}: ${record.reason ?? ''}`)
  t.equal(netMnq(broker), 5, `held ${netMnq(broker)}, one entry's 5 at most (${records.join(' | ')})`)
})
