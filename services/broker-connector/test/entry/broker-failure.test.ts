import t from 'tap'
import { BrokerError } from '../../src/broker/broker-adapter.ts'
import { brokerFailure, type Plan } from '../../src/entry/plan-record.ts'
import type { EntryRecord } from '../../src/repositories/entry-records.ts'

// The record's reason says what the broker did once ("the broker refused the order: ..."), never wrapped in
// a second sentence that says it again; an open outcome that ends a record never sent says "not placed".
const record: EntryRecord = {
  id: 7, user_id: 'u-0', alert_id: 'a-7', status: 'placing', symbol: 'MNQ1!', root: 'MNQ', action: 'LONG', entry_price: '21000', sl: '20950', tp: '21100',
  alert_quantity: null, raw_data: {}, received_at: new Date('2026-07-01T15:00:00Z'), send_attempts: 1, order_tag: 'sig-7', order_quantity: 5, contract: 'MNQZ6',
  live_trading: { enabled: true, autoPlaceOrders: true }, risk_config: null, max_contracts: null,
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

t.test('no answer otherwise leaves the outcome open: retried, or waiting once sent', async (t) => {
  t.same(brokerFailure(record, unreachable, false, false), { kind: 'retry', id: 7, note: 'waiting for the broker: broker unreachable: connection failed' })
  t.same(brokerFailure(record, waitAsked, false, true), { kind: 'retry', id: 7, note: 'waiting for the broker: order/placeOSO: the broker asked us to wait 30 s (HTTP 429)' })
  t.same(brokerFailure(record, unreachable, true, true), { kind: 'waiting', id: 7, note: 'waiting for the broker: broker unreachable: connection failed' })
})
