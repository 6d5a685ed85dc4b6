import t from 'tap'
import { BrokerError } from '../../../src/feeds/broker/broker-adapter.ts'
import { brokerFailure, type Plan } from '../../../src/trading/entry/plan-record.ts'
import type { EntryRecord } from '../../../src/repositories/entry-records.ts'

// The record's reason says what the broker did once ("the broker refused the order: ..."), never wrapped in
// a second sentence that says it again; an open outcome that ends a record never sent says "not placed".
const record: EntryRecord = {
  id: 7, user_id: 'u-0', alert_id: 'a-7', status: 'placing', symbol: 'MNQ1!', root: 'MNQ', action: 'LONG', entry_price: '21000', sl: '20950', tp: '21100',
  alert_quantity: null, order_word: null, raw_data: {}, received_at: new Date('2026-07-01T15:00:00Z'), send_attempts: 1, order_tag: 'sig-7', order_quantity: 5, contract: 'MNQZ6',
  refusal_code: null, live_trading: { enabled: true, autoPlaceOrders: true }, risk_config: null, max_contracts: null, age_ms: 1_000, sent_age_ms: 500, read_at: new Date('2026-07-01T15:00:01Z'),
}
// The record is 1 s old: within the wait limit of `young`, past that of `old` (the larger of the two ages).
const young = { sessionWaitMs: 30_000, maxAlertAgeMs: 60_000 }
const old = { sessionWaitMs: 500, maxAlertAgeMs: 1_000 }
const reasonOf = (plan: Plan) => (plan.kind === 'decided' && plan.mark.status === 'failed' ? plan.mark.reason : `not failed: ${plan.kind}`)
const refusal = new BrokerError('rejected', 'the broker refused the order: Insufficient margin')
const unreachable = new BrokerError('unavailable', 'broker unreachable: connection failed')
const waitAsked = new BrokerError('rate_limited', 'order/placeOSO: the broker asked us to wait 30 s (HTTP 429)', 30_000)

t.test('a refusal is final and its text is the reason as it stands, sent or not', async (t) => {
  for (const [limits, sent] of [[young, true], [old, false], [young, false]] as const) {
    t.same(brokerFailure(record, refusal, limits, sent), {
      kind: 'decided',
      mark: { id: 7, status: 'failed', reason: 'the broker refused the order: Insufficient margin', code: null, contract: null },
      flatten: null,
    })
  }
  const captcha = new BrokerError('captcha', 'order/placeOSO: the broker asks for a captcha; trying again in about an hour', 3_600_000)
  t.equal(reasonOf(brokerFailure(record, captcha, young, false)), 'order/placeOSO: the broker asks for a captcha; trying again in about an hour')
})

t.test('no answer for a record never sent and past the wait limit (its age): failed, "not placed", the broker\'s words once', async (t) => {
  t.same(brokerFailure(record, unreachable, old, false), {
    kind: 'decided',
    mark: { id: 7, status: 'failed', reason: 'not placed: broker unreachable: connection failed', code: null, contract: null },
    flatten: null,
  })
  t.equal(reasonOf(brokerFailure(record, waitAsked, old, false)), 'not placed: order/placeOSO: the broker asked us to wait 30 s (HTTP 429)')
})

t.test('before any send, no answer leaves the outcome open: the message comes back', async (t) => {
  t.same(brokerFailure(record, unreachable, young, false), { kind: 'retry', id: 7, note: 'waiting for the broker: broker unreachable: connection failed' })
})

t.test('after a send, an unknown outcome (no answer, 5xx, connection lost) waits, young or old: never sent again', async (t) => {
  const noAnswer = new BrokerError('unavailable', 'order/placeOSO: the broker did not answer within 10000 ms; the outcome is unknown')
  const note = 'outcome unknown: order/placeOSO: the broker did not answer within 10000 ms; the outcome is unknown; the order is not sent again, and is looked for by its tag'
  t.same(brokerFailure(record, noAnswer, young, true), { kind: 'waiting', id: 7, note })
  t.same(brokerFailure(record, noAnswer, old, true), { kind: 'waiting', id: 7, note })
})

t.test('after a send the broker did not carry out (a wait it asked for, no connection to send on): back to unsent, or failed past the wait limit', async (t) => {
  const notConnected = new BrokerError('unavailable', 'order/placeOSO: not connected to the broker (closed)', null, true)
  t.same(brokerFailure(record, waitAsked, young, true), { kind: 'unsent', id: 7, note: 'waiting for the broker: order/placeOSO: the broker asked us to wait 30 s (HTTP 429)' })
  t.same(brokerFailure(record, notConnected, young, true), { kind: 'unsent', id: 7, note: 'waiting for the broker: order/placeOSO: not connected to the broker (closed)' })
  t.equal(reasonOf(brokerFailure(record, notConnected, old, true)), 'not placed: order/placeOSO: not connected to the broker (closed)')
})

t.test('the wait limit is the record\'s age against the larger of the session wait and the alert age limit, whatever the delivery', async (t) => {
  const at = (age_ms: number) => ({ ...record, status: 'received' as const, age_ms })
  t.match(brokerFailure(at(59_999), unreachable, young, false), { kind: 'retry' }, 'one millisecond younger than the limit: waits')
  t.match(brokerFailure(at(60_000), unreachable, young, false), { kind: 'decided', mark: { status: 'failed', reason: 'not placed: broker unreachable: connection failed' } }, 'at the limit: failed, the reason on the record')
  t.match(brokerFailure(at(45_000), unreachable, { sessionWaitMs: 90_000, maxAlertAgeMs: 30_000 }, false), { kind: 'retry' }, 'a longer session wait is the limit')
})
