import t from 'tap'
import type { OrderInstruction } from '@signals/contracts'
import { eventually, makeAlert, publishAlert } from '../../helper.ts'
import { mnqEntry, settledRecord } from '../../trading-helper.ts'
import { openedTrade } from '../positions/exit-helper.ts'
import { traderWithSource } from '../../source-helper.ts'

/** Issue 22 item 4: a source's instruction alerts reach only what its own entries opened (docs/decisions/signal-sources.md). */

const instructionAlert = (instruction: OrderInstruction, sourceId?: string) =>
  makeAlert({ symbol: 'MNQ1!', root: 'MNQ', action: null, entryPrice: null, sl: null, tp: null, userId: 'u-0', instruction, raw: { action: instruction.kind }, ...(sourceId === undefined ? {} : { sourceId }) })

t.test("a source's modify moves only its own trade's stop and target; the spec route's trade keeps its bracket", async (t) => {
  const { app, db, house } = await traderWithSource(t)
  const spec = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, spec)
  const specTrade = await openedTrade(db, (await settledRecord(db, spec.alertId)).id)
  const fromHouse = mnqEntry({ userId: 'u-0', sourceId: house, sl: 20900, tp: 21200 })
  await publishAlert(app, fromHouse)
  const houseTrade = await openedTrade(db, (await settledRecord(db, fromHouse.alertId)).id)
  const legs = async (trade: typeof specTrade) => {
    const versions = await app.feeds.session('u-0')!.orderVersions([trade.stop_order_id!, trade.target_order_id!])
    return { stop: Number(versions.get(trade.stop_order_id!)?.stopPrice), target: Number(versions.get(trade.target_order_id!)?.price) }
  }

  const modify = instructionAlert({ kind: 'modify', sl: 20960, tp: 21150 }, house)
  await publishAlert(app, modify)
  t.match(await settledRecord(db, modify.alertId), { status: 'placed', reason: `stop of trade ${houseTrade.id} moved to 20960.00, target of trade ${houseTrade.id} moved to 21150.00` })
  t.same(await legs(houseTrade), { stop: 20960, target: 21150 }, "the source's trade moved")
  t.same(await legs(specTrade), { stop: 20950, target: 21100 }, "the spec route's trade did not")

  // The spec route's modify reaches the spec route's trade only.
  const specModify = instructionAlert({ kind: 'modify', sl: 20955, tp: null })
  await publishAlert(app, specModify)
  t.match(await settledRecord(db, specModify.alertId), { status: 'placed', reason: `stop of trade ${specTrade.id} moved to 20955.00` })
  t.same(await legs(houseTrade), { stop: 20960, target: 21150 })
})

t.test("a source's modify with none of its trades open is refused, saying so; another source's trade is not moved", async (t) => {
  const { app, db, house } = await traderWithSource(t)
  const spec = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, spec)
  const specTrade = await openedTrade(db, (await settledRecord(db, spec.alertId)).id)
  const modify = instructionAlert({ kind: 'modify', sl: 20960, tp: null }, house)
  await publishAlert(app, modify)
  t.match(await settledRecord(db, modify.alertId), { status: 'refused', refusal_code: 'no_open_trade', reason: /nothing to modify: no open trade of this signal source in MNQ1! on account DEMO9000/ })
  const versions = await app.feeds.session('u-0')!.orderVersions([specTrade.stop_order_id!])
  t.equal(Number(versions.get(specTrade.stop_order_id!)?.stopPrice), 20950, "the spec route's stop did not move")
})

t.test("a source's cancel reaches only its own working orders; the spec route's resting entry keeps working", async (t) => {
  const { broker, app, db, house } = await traderWithSource(t)
  const resting = (overrides: Parameters<typeof mnqEntry>[0]) => mnqEntry({ userId: 'u-0', entryPrice: 20900, sl: 20850, tp: 21000, raw: { orderType: 'limit' }, ...overrides })
  const spec = resting({})
  await publishAlert(app, spec)
  const specRecord = await settledRecord(db, spec.alertId)
  const fromHouse = resting({ sourceId: house, entryPrice: 20890, sl: 20840 })
  await publishAlert(app, fromHouse)
  const houseRecord = await settledRecord(db, fromHouse.alertId)
  t.match([specRecord.status, houseRecord.status], ['placed', 'placed'])
  const status = (recordId: number) => broker.orders().find((order) => order.clOrdId === `sig-${recordId}`)?.ordStatus

  for (const orders of ['entry', 'all'] as const) {
    const cancel = instructionAlert({ kind: 'cancel', orders }, house)
    await publishAlert(app, cancel)
    const settled = await settledRecord(db, cancel.alertId)
    if (orders === 'entry') t.match(settled, { status: 'placed', reason: /^1 working entry order\(s\) cancelled in MNQZ6 on account DEMO9000/ })
    else t.match(settled, { status: 'refused', refusal_code: 'nothing_to_cancel', reason: /nothing to cancel: no working order\(s\) of this signal source in MNQZ6/ }, 'the spec route\'s orders are not the source\'s')
  }
  await eventually(() => status(houseRecord.id) === 'Canceled')
  t.equal(status(specRecord.id), 'Working', "the spec route's entry still works")
  t.match(await db.selectFrom('alerts').select('reason').where('id', '=', specRecord.id).executeTakeFirstOrThrow(), { reason: null }, "the spec route's record says nothing was cancelled")
})
