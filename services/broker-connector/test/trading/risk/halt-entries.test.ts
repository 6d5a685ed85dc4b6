import t, { type Test } from 'tap'
import { sql } from '@signals/db'
import { eventually, makeAlert, publishAlert } from '../../helper.ts'
import { lockAccounts, unlockAccounts } from '../../../src/repositories/entry-locks.ts'
import { recordOf, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { watchedTrader } from './watchdog-helper.ts'

// Review of the risk watchdog (issue 20, item 6): its halt was written outside the account lock the entry
// decisions hold, so an entry decided meanwhile could pass the halt; and a halt left the account's working
// limit entries in contracts without a trade: one filling after the halt opened a position again.

const HARD_1000 = { dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } }

/** A buy limit of ES at 5990 (market 6000), stop 5985: placed and working, no trade. */
async function workingEsLimit(t: Test, { broker, app, db }: Pick<Awaited<ReturnType<typeof watchedTrader>>, 'broker' | 'app' | 'db'>) {
  broker.setPrice('ESZ6', '6000')
  const alert = makeAlert({ userId: 'u-0', symbol: 'ES1!', root: 'ES', action: 'LONG', entryPrice: 5990, sl: 5985, tp: 6020 })
  await publishAlert(app, { ...alert, raw: { ...(alert.raw as object), orderType: 'limit' } })
  const record = await settledRecord(db, alert.alertId)
  t.match(record, { status: 'placed' })
  const order = () => broker.orders().find((candidate) => candidate.id === record.entry_order_id)
  t.equal(order()?.ordStatus, 'Working', 'a buy limit below the market waits')
  return { record, order }
}

t.test('the halt is written in turn with the account\'s entry decisions (under the same account lock)', async (t) => {
  const { broker, db, watchdog, closedLoss, openTrade, netPosition, quoted } = await watchedTrader(t, HARD_1000, { watchdogMs: '600000' })
  await openTrade()
  await closedLoss('-900')
  broker.setPrice('MNQZ6', '20980')
  await quoted('20980')
  const waitingForLock = async () => {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`.execute(db)
    return (rows[0]?.n ?? 0) > 0
  }
  let passing: Promise<unknown> | undefined
  // An entry decision of the account under way: it holds the account's lock.
  await db.connection().execute(async (connection) => {
    await lockAccounts(connection, ['u-0'])
    try {
      passing = watchdog.pass()
      await eventually(waitingForLock, 10_000)
      t.same(await db.selectFrom('risk_halts').selectAll().execute(), [], 'no halt written while the decision holds the account')
      t.equal(netPosition(), 5, 'nothing flattened yet')
    } finally {
      await unlockAccounts(connection, ['u-0'])
    }
  })
  t.same(await passing, ['flattened'], 'the halt follows the decision')
  t.match(await db.selectFrom('risk_halts').selectAll().execute(), [{ user_id: 'u-0', code: 'daily_loss_limit_hard' }])
  await eventually(() => netPosition() === 0)
})

t.test('a halt cancels the account\'s working entry orders, also in contracts no trade is in yet: a limit entry never fills after it', async (t) => {
  const { broker, app, db, watchdog, closedLoss, openTrade, contractIdOf, netPosition, quoted } = await watchedTrader(t, HARD_1000, { watchdogMs: '600000' })
  const mnqTrade = await openTrade()
  const { record: limit, order: working } = await workingEsLimit(t, { broker, app, db })

  await closedLoss('-900')
  broker.setPrice('MNQZ6', '20980')
  await quoted('20980')
  t.same(await watchdog.pass(), ['flattened'])
  t.equal(working()?.ordStatus, 'Canceled', 'the ES limit entry is cancelled by the halt')
  const record = await db.selectFrom('alerts').select(['status', 'reason']).where('id', '=', limit.id).executeTakeFirstOrThrow()
  t.match(record, { status: 'placed', reason: /^risk halt: today's loss of \$1,100\.00 \(open pnl -\$200\.00\) reached the hard daily loss limit of \$1,000\.00; the entry order was cancelled before it filled$/ }, 'the record says why')
  await eventually(async () => (await tradeOfRecord(db, mnqTrade))?.status === 'closed')

  broker.setPrice('ESZ6', '5988') // through the limit (5990), above its stop (5985)
  t.equal(netPosition(await contractIdOf('ESZ6')), 0, 'the limit did not fill after the halt')
  t.equal(await tradeOfRecord(db, limit.id), undefined, 'no ES trade')
})

t.test('a hard daily-loss refusal halts the same way: the account\'s working entries are cancelled with the reason', async (t) => {
  const { broker, app, db, closedLoss, nextEntry } = await watchedTrader(t, HARD_1000, { watchdogMs: '600000' })
  const { record: limit, order: working } = await workingEsLimit(t, { broker, app, db })
  await closedLoss('-1000')
  t.match(await nextEntry(), { status: 'refused', refusal_code: 'daily_loss_limit_hard' })
  await eventually(() => working()?.ordStatus === 'Canceled')
  // The record is noted once the cancels are done: the broker shows the cancel a moment before.
  const noted = () => db.selectFrom('alerts').select(['status', 'reason']).where('id', '=', limit.id).executeTakeFirstOrThrow()
  await eventually(async () => (await noted()).reason !== null)
  t.match(await noted(), {
    status: 'placed',
    reason: /^risk halt: Today's loss of \$1,000\.00 reached the hard daily loss limit of \$1,000\.00.*; the entry order was cancelled before it filled$/,
  })
})

t.test('an entry decided just before the halt that reaches the broker only after it is cancelled by the next pass', async (t) => {
  const { broker, app, db, watchdog, closedLoss, openTrade, quoted } = await watchedTrader(t, HARD_1000, { watchdogMs: '600000' })
  await openTrade()
  broker.setPrice('ESZ6', '6000')
  // The ES limit entry is decided and sent, but the broker carries the placeOSO out (and answers) only when released.
  broker.interfere('order/placeOSO', { kind: 'late' })
  const alert = makeAlert({ userId: 'u-0', symbol: 'ES1!', root: 'ES', action: 'LONG', entryPrice: 5990, sl: 5985, tp: 6020 })
  await publishAlert(app, { ...alert, raw: { ...(alert.raw as object), orderType: 'limit' } })
  const status = async () => (await db.selectFrom('alerts').select('status').where('alert_id', '=', alert.alertId).executeTakeFirst())?.status
  await eventually(async () => (await status()) === 'placing')
  const tag = `sig-${(await recordOf(db, alert.alertId)).id}`

  await closedLoss('-900')
  broker.setPrice('MNQZ6', '20980')
  await quoted('20980')
  t.same(await watchdog.pass(), ['flattened'], 'halted while the ES entry is on its way')
  t.notOk(broker.orders().some((order) => order.clOrdId === tag), 'the ES entry is not at the broker yet')

  t.equal(broker.release('order/placeOSO'), 1)
  const working = () => broker.orders().find((order) => order.clOrdId === tag)
  t.equal(working()?.ordStatus, 'Working', 'it reaches the broker after the halt')
  await eventually(async () => (await status()) === 'placed')
  t.same(await watchdog.pass(), [], 'no open trade left to watch')
  t.equal(working()?.ordStatus, 'Canceled', 'the late entry is cancelled')
  t.match(await recordOf(db, alert.alertId), { status: 'placed', reason: /^risk halt: today's loss of \$1,100\.00 .*; the entry order was cancelled before it filled$/ })
})
