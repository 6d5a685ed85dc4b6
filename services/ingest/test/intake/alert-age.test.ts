import t from 'tap'
import { refuseStaleAlert } from '../../src/intake/alert-age.ts'

const receivedAt = '2026-11-23T12:00:00.000Z'
const secondsBefore = (seconds: number) => new Date(Date.parse(receivedAt) - seconds * 1000).toISOString()

t.test('max_lag: the sender\'s own maximum age', async (t) => {
  t.doesNotThrow(() => refuseStaleAlert({ time: secondsBefore(299), maxLag: '300' }, receivedAt, null))
  t.throws(() => refuseStaleAlert({ time: secondsBefore(301), maxLag: '300' }, receivedAt, null), { outcome: 'too_old', statusCode: 400, message: 'Alert is 301 s old; alerts older than 300 s (its max_lag) are refused' })
  t.throws(() => refuseStaleAlert({ time: secondsBefore(61), maxLag: 300 }, receivedAt, 60_000), { outcome: 'too_old', message: /older than 60 s are refused/ }, 'the shorter limit applies')
  t.throws(() => refuseStaleAlert({ time: String(Math.floor(Date.parse(receivedAt) / 1000) - 400), maxLag: 300 }, receivedAt, null), /older than 300 s/, 'epoch seconds')
})

t.test('max_lag needs a readable time; without it an unreadable time is not checked', async (t) => {
  t.throws(() => refuseStaleAlert({ time: '{{timenow}}', maxLag: '300' }, receivedAt, null), { outcome: 'invalid', message: /^Unexpanded placeholder \{\{timenow\}\} in the timestamp/ })
  t.throws(() => refuseStaleAlert({ maxLag: '300' }, receivedAt, null), { outcome: 'invalid', message: /^max_lag is set but the alert has no readable timestamp/ })
  t.throws(() => refuseStaleAlert({ time: secondsBefore(1), maxLag: 'soon' }, receivedAt, null), { outcome: 'invalid', message: 'max_lag must be a positive number of seconds (got "soon")' })
  t.doesNotThrow(() => refuseStaleAlert({ time: '{{timenow}}' }, receivedAt, 60_000))
  t.doesNotThrow(() => refuseStaleAlert({ time: secondsBefore(10_000) }, receivedAt, null), 'no limit at all')
})
