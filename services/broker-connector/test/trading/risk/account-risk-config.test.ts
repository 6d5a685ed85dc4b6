import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import { eventually, publishAlert } from '../../helper.ts'
import { connect, liveTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { clockedTradingApp } from './clocked-timer-helper.ts'
import { watchedTrader } from './watchdog-helper.ts'

// Issue 22, stage 3b (docs/decisions/accounts.md): the risk watchdog and the daily flatten act on the
// account's risk configuration (`account_risk_configs`, the primary's while only the primary trades) as it
// is now: the trader's first configuration is replaced in the primary's row after the trader is set up.

const primaryConfig = (db: Kysely<Database>, config: unknown) =>
  sql`UPDATE account_risk_configs r SET config = ${JSON.stringify(config)}::jsonb
    FROM broker_accounts a WHERE a.id = r.account_id AND a.user_id = 'u-0' AND a.is_primary`.execute(db)

t.test("the watchdog flattens and halts by the account's hard daily loss limit (it was soft when the trader was set up)", async (t) => {
  const { broker, db, openTrade, closedLoss, netPosition } = await watchedTrader(t, { dailyLossLimit: { enabled: true, amount: 1000, type: 'soft' } })
  await primaryConfig(db, { dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } })
  const tradeRecord = await openTrade()
  await closedLoss('-900')
  broker.setPrice('MNQZ6', '20980') // 5 x 20 points x $2 = -200 open: 1,100 lost today
  await eventually(async () => (await tradeOfRecord(db, tradeRecord))?.status === 'closed')
  t.match(await tradeOfRecord(db, tradeRecord), { result: 'Session End', close_reason: /reached the hard daily loss limit of \$1,000\.00/ })
  t.equal(netPosition(), 0, 'flat at the broker')
  t.match(await db.selectFrom('risk_halts').selectAll().where('user_id', '=', 'u-0').execute(), [{ code: 'daily_loss_limit_hard' }])
})

t.test("the daily flatten runs at the account's time (it named none when the trader was set up)", async (t) => {
  const { app, db, config, passAt } = await clockedTradingApp(t)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0', riskConfig: { sessionRules: { dailyFlattenAt: null } } })
  await primaryConfig(db, { sessionRules: { dailyFlattenAt: '15:55' } })
  await connect(app, 'u-0')
  const entry = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  // Wednesday 25 Nov 2026, Chicago UTC-6: 15:55 is 21:55 UTC.
  t.same(await passAt('dailyFlatten', '2026-11-25T21:55:00Z'), ['u-0'], "flattened at the account's time")
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), { result: 'Session End', close_reason: /daily flatten at 15:55/ })
})
