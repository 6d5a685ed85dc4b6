import type { Test } from 'tap'
import { paperBroker, tradingApp } from '../../trading-helper.ts'

/**
 * A connector whose session-rule timers (daily flatten, news flatten) read the test's clock and never tick on
 * their own (long intervals): each pass is driven by the test at the instant it names. MNQZ6 is at 21000.
 */
export async function clockedTradingApp(t: Test) {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  let clockAt = new Date()
  const { app, db, config } = await tradingApp(t, broker, { RISK_WATCHDOG_MS: '600000', DAILY_FLATTEN_CHECK_MS: '60000', LIMIT_TIMEOUT_CHECK_MS: '600000' }, { clock: () => clockAt })
  /** Runs one pass of the named timer with the clock at `at`; answers the users it flattened. */
  const passAt = (timer: 'dailyFlatten' | 'newsFlatten' | 'limitTimeouts', at: string) => {
    clockAt = new Date(at)
    const flatten = app.trading[timer]
    if (!flatten) throw new Error(`no ${timer} in an instance with feeds`)
    return flatten.pass()
  }
  return { broker, app, db, config, passAt }
}
