import t from 'tap'
import { DEFAULT_RISK_ENGINE_CONFIG, dueDailyFlatten, sessionGate, type SessionRules } from '../src/index.ts'

const rules = (overrides: Partial<SessionRules>): SessionRules => ({ ...DEFAULT_RISK_ENGINE_CONFIG.sessionRules, ...overrides })
const none = { entries: 0, executions: 0 }
// 2026-11-25 is a Wednesday; Chicago is UTC-6 (CST).
const chicago = (time: string, date = '2026-11-25') => new Date(`${date}T${time}:00-06:00`)

t.test('the defaults allow everything', async (t) => {
  t.equal(sessionGate(DEFAULT_RISK_ENGINE_CONFIG.sessionRules, chicago('03:00'), { entries: 999, executions: 999 }, [{ name: 'CPI', at: chicago('03:00'), minutesBefore: 5, minutesAfter: 5 }]), null)
})

t.test('trading windows: start inside, end outside, windows across midnight, daylight saving followed', async (t) => {
  const day = rules({ tradingWindows: [{ start: '08:30', end: '15:00' }] })
  t.equal(sessionGate(day, chicago('08:30'), none, []), null)
  t.equal(sessionGate(day, chicago('14:59'), none, []), null)
  t.match(sessionGate(day, chicago('15:00'), none, []), { code: 'outside_trading_window', flatten: false })
  t.match(sessionGate(day, chicago('08:29'), none, []), { code: 'outside_trading_window' })
  const night = rules({ tradingWindows: [{ start: '22:00', end: '02:00' }] })
  t.equal(sessionGate(night, chicago('23:59'), none, []), null)
  t.equal(sessionGate(night, chicago('00:30'), none, []), null)
  t.match(sessionGate(night, chicago('02:00'), none, []), { code: 'outside_trading_window' })
  t.match(sessionGate(night, chicago('21:59'), none, []), { code: 'outside_trading_window' })
  // In July Chicago is UTC-5: 13:30 UTC is 08:30 there.
  t.equal(sessionGate(day, new Date('2026-07-15T13:30:00Z'), none, []), null)
  t.match(sessionGate(day, new Date('2026-07-15T13:29:00Z'), none, []), { code: 'outside_trading_window' })
  const two = rules({ tradingWindows: [{ start: '08:30', end: '10:00' }, { start: '13:00', end: '15:00' }] })
  t.match(sessionGate(two, chicago('11:00'), none, []), { reason: /outside the trading windows 08:30-10:00, 13:00-15:00/ })
})

t.test('entries and executions per trading day', async (t) => {
  const capped = rules({ maxEntriesPerDay: 2, maxExecutionsPerDay: 5 })
  t.equal(sessionGate(capped, chicago('10:00'), { entries: 1, executions: 4 }, []), null)
  t.match(sessionGate(capped, chicago('10:00'), { entries: 2, executions: 0 }, []), { code: 'max_entries_per_day' })
  t.match(sessionGate(capped, chicago('10:00'), { entries: 0, executions: 5 }, []), { code: 'max_executions_per_day' })
})

t.test('news blackout: [at - before, at + after], only when the trader asks; flatten when asked', async (t) => {
  const news = [{ name: 'FOMC', at: chicago('13:00'), minutesBefore: 10, minutesAfter: 30 }]
  t.equal(sessionGate(rules({}), chicago('13:00'), none, news), null, 'not asked: no blackout')
  const asked = rules({ newsBlackout: true })
  t.equal(sessionGate(asked, new Date(chicago('12:50').getTime() - 1), none, news), null)
  t.match(sessionGate(asked, chicago('12:50'), none, news), { code: 'news_blackout', flatten: false, reason: 'News blackout for FOMC at 13:00 exchange time (10 min before, 30 min after): no new entries until 13:30.' })
  t.match(sessionGate(asked, chicago('13:30'), none, news), { code: 'news_blackout' })
  t.equal(sessionGate(asked, new Date(chicago('13:30').getTime() + 1), none, news), null)
  t.match(sessionGate(rules({ newsBlackout: true, flattenBeforeNews: true }), chicago('12:55'), none, news), { code: 'news_blackout', flatten: true, reason: /every position is flattened/ })
})

t.test('the daily flatten is due from its time to the end of its trading day, never on the weekend', async (t) => {
  t.equal(dueDailyFlatten('15:55', chicago('15:54')), null, 'before the time')
  t.equal(dueDailyFlatten('15:55', chicago('15:55')), '2026-11-25')
  t.equal(dueDailyFlatten('15:55', chicago('16:59')), '2026-11-25', 'caught up later the same trading day (a restart)')
  t.equal(dueDailyFlatten('15:55', chicago('17:00')), null, 'not into the next trading day')
  t.equal(dueDailyFlatten('15:55', chicago('09:00')), null, "the evening session of today's day has not reached it")
  t.equal(dueDailyFlatten('18:00', chicago('18:30')), '2026-11-26', 'an evening time belongs to the next trading day')
  t.equal(dueDailyFlatten('18:00', chicago('02:00', '2026-11-26')), '2026-11-26')
  t.equal(dueDailyFlatten('15:55', chicago('16:00', '2026-11-28')), null, 'Saturday: Globex is shut')
  t.equal(dueDailyFlatten('18:00', chicago('18:05', '2026-11-29')), '2026-11-30', 'Sunday evening is Monday\'s session')
  t.equal(dueDailyFlatten('15:55', chicago('15:58', '2026-11-27')), '2026-11-27', 'Friday before the close')
})
