import type { Test } from 'tap'
import type { Database, Kysely } from '@signals/db'
import type { ProjectXPaperBroker } from '@signals/dev-paper-broker-projectx'
import { publishAlert, type App } from '../../../helper.ts'
import { mnqEntry, savePrimaryRiskConfig, settledRecord, tradeOfRecord } from '../../../trading-helper.ts'
import { closedTrade } from '../../../trading/positions/exit-helper.ts'
import { eventually, legOrdersOf, netMnq } from './helper.ts'

/** The record's own legs still working at the paper broker. */
export const workingLegsOf = (broker: ProjectXPaperBroker, recordId: number) => legOrdersOf(broker, recordId).filter((order) => order.ordStatus === 'Working')

/**
 * Another record's trade beside a resting entry's (stop 35 review, HIGH 2): a market entry of 2 in MNQ at 21000
 * (the account adds to a position), its stop (20950) and target (21100) placed by the connector and working;
 * the prices of the late-fill tests reach neither. `legSizes`: its working legs, tag and size.
 */
export async function otherRecordTrade(broker: ProjectXPaperBroker, app: App, db: Kysely<Database>) {
  await savePrimaryRiskConfig(db, 'u-0', { riskMode: { mode: 'fixed_contracts', fixedContracts: 2 }, limits: { maxOpenTrades: 10 }, positionChanges: { pyramiding: 'allow' } })
  const other = mnqEntry()
  await publishAlert(app, other)
  const otherRecord = await settledRecord(db, other.alertId)
  await eventually(async () => workingLegsOf(broker, otherRecord.id).length === 2 && (await tradeOfRecord(db, otherRecord.id))?.target_order_id != null)
  const held = Number((await tradeOfRecord(db, otherRecord.id))?.quantity)
  const legSizes = () => workingLegsOf(broker, otherRecord.id).map((order) => [order.clOrdId, order.orderQty]).sort()
  return { otherRecord, held, legSizes }
}

/**
 * What must not happen once the late contract's close has filled (the other trade cut, its legs cut or
 * cancelled), waited for a while: before the fix it came at once after the close's fill.
 */
export async function otherTradeKept(t: Test, db: Kysely<Database>, broker: ProjectXPaperBroker, run: Awaited<ReturnType<typeof otherRecordTrade>> & { record: { id: number } }) {
  const { otherRecord, held, record, legSizes } = run
  await eventually(async () => (await tradeOfRecord(db, otherRecord.id))?.status !== 'open' || Number((await tradeOfRecord(db, otherRecord.id))?.quantity) !== held, 5_000).catch(() => undefined)
  const otherNow = await tradeOfRecord(db, otherRecord.id)
  t.same([otherNow?.status, Number(otherNow?.quantity)], ['open', held], "the other record's trade is still open with its quantity")
  t.same(legSizes(), [[`sig-${otherRecord.id}.sl`, held], [`sig-${otherRecord.id}.tp`, held]], 'its stop and target still work at its size')
  const open = await db.selectFrom('trades').select('quantity').where('user_id', '=', 'u-0').where('status', '=', 'open').execute()
  t.equal(open.reduce((sum, trade) => sum + Number(trade.quantity), 0), netMnq(broker), "the account's position is what the open trades hold")
  t.match(await closedTrade(db, record.id), { result: 'TP', quantity: '1' }, "the resting entry's trade is the one its target closed")
}
