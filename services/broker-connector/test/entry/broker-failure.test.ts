import t from 'tap'
import { BrokerError } from '../../src/broker/broker-adapter.ts'
import { brokerFailure, type Plan } from '../../src/entry/plan-record.ts'
import type { EntryRecord } from '../../src/repositories/entry-records.ts'

// The record's reason says what the broker did once ("the broker refused the order: ..."), never wrapped in
// a second sentence that says it again; an open outcome that ends a record never sent says "not placed".
const record: EntryRecord = {
  id: 7, user_id: 'u-0', alert_id: 'a-7', status: 'placing', symbol: 'MNQ1!', root: 'MNQ', action: 'LONG', entry_price: '21000', sl: '20950', tp: '21100',
  alert_quantity: null, order_word: null, raw_data: {}, received_at: new Date('2026-07-01T15:00:00Z'), send_attempts: 1, order_tag: 'sig-7', order_quantity: 5, contract: 'MNQZ6',
  refusal_code: null, live_trading: { enabled: true, autoPlaceOrders: true }, risk_config: null, max_contracts: null, age_ms: 1_000, sent_age_ms: 500, read_at: new Date('2026-07-01T15:00:01Z'),
}
const reasonOf = (plan: Plan) => (plan.kind === 'decided' && plan.mark.status === 'failed' ? plan.mark.reason : `not failed: ${plan.kind}`)
const refusal = new BrokerError('rejected', 'the broker refused the order: Insufficient margin')
const unreachable = new BrokerError('unavailable', 'broker unreachable: connection failed')
const waitAsked = new BrokerError('rate_limited', 'order/placeOSO: the broker asked us to wait 30 s (HTTP 429)', 30_000)

t.test('a refusal is final and its text is the reason as it stands, sent or not', async (t) => {
  for (const [lastAttempt, sent] of [[false, true], [true, false], [false, false]] as const) {
    t.same(brokerFailure(record, refusal, lastAttempt, sent), {
      kind: 'decided',
      mark: { id: 7, status: 'failed', reason: 'the broker refused the order: Insufficient margin', code: null, contract: null },
      flatten: null,
    })
  }
  const captcha = new BrokerError('captcha', 'order/placeOSO: the broker asks for a captcha; trying again in about an hour', 3_600_000)
  t.equal(reasonOf(brokerFailure(record, captcha, false, false)), 'order/placeOSO: the broker asks for a captcha; trying again in about an hour')
})

t.test('no answer on the last delivery of a record never sent: failed, "not placed", the broker\'s words once', async (t) => {
  t.same(brokerFailure(record, unreachable, true, false), {
    kind: 'decided',
    mark: { id: 7, status: 'failed', reason: 'not placed: broker unreachable: connection failed', code: null, contract: null },
    flatten: null,
  })
  t.equal(reasonOf(brokerFailure(record, waitAsked, true, false)), 'not placed: order/placeOSO: the broker asked us to wait 30 s (HTTP 429)')
})

t.test('before any send, no answer leaves the outcome open: the message comes back', async (t) => {
  t.same(brokerFailure(record, unreachable, false, false), { kind: 'retry', id: 7, note: 'waiting for the broker: broker unreachable: connection failed' })
})

t.test('after a send, an unknown outcome (no answer, 5xx, connection lost) waits, first delivery or last: never sent again', async (t) => {
  const noAnswer = new BrokerError('unavailable', 'order/placeOSO: the broker did not answer within 10000 ms; the outcome is unknown')
  const note = 'outcome unknown: order/placeOSO: the broker did not answer within 10000 ms; the outcome is unknown; the order is not sent again, and is looked for by its tag'
  t.same(brokerFailure(record, noAnswer, false, true), { kind: 'waiting', id: 7, note })
  t.same(brokerFailure(record, noAnswer, true, true), { kind: 'waiting', id: 7, note })
})

t.test('after a send the broker did not carry out (a wait it asked for, no connection to send on): back to unsent, or failed on the last delivery', async (t) => {
  const notConnected = new BrokerError('unavailable', 'order/placeOSO: not connected to the broker (closed)', null, true)
  t.same(brokerFailure(record, waitAsked, false, true), { kind: 'unsent', id: 7, note: 'waiting for the broker: order/placeOSO: the broker asked us to wait 30 s (HTTP 429)' })
  t.same(brokerFailure(record, notConnected, false, true), { kind: 'unsent', id: 7, note: 'waiting for the broker: order/placeOSO: not connected to the broker (closed)' })
  t.equal(reasonOf(brokerFailure(record, notConnected, true, true)), 'not placed: order/placeOSO: not connected to the broker (closed)')
})
