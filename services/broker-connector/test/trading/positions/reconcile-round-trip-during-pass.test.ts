import t from 'tap'
import type { PaperBroker } from '@signals/dev-paper-broker'
import { eventually, publishAlert } from '../../helper.ts'
import { mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { discrepancies, reconcilingTrader } from './reconcile-helper.ts'

// Seen in CI (reconcile-stop-filled-during-pass, 1 run in many on a loaded machine): a pass read the position
// flat, then a limit entry filled and its stop filled before the pass read the position again. Flat before and
// after, the contract was taken as not moved, while our trades read in between held the entry's trade: a
// "broker_flat" told and the trade ended as cancelled, without the PnL its stop made, and its legs listed
// working taken for strays. Here the broker carries the two fills out as the pass's requests arrive: the entry
// as its `fill/list` arrives (after its first position read), the stop as its second position read arrives.

t.test('a position that opens and closes again during a pass is not taken for a difference', async (t) => {
  // The broker acts on its own requests: known once started.
  const started: { broker?: PaperBroker } = {}
  let step: 'idle' | 'armed' | 'listing' | 'opened' | 'closed' = 'idle'
  const onRequest = ({ endpoint }: { endpoint: string }) => {
    // A pass reads the positions, then the fills, ..., then the positions again: the first read seen may be a
    // pass's second, in which case the next pass's fill list comes first after it.
    if (step === 'armed' && endpoint === 'position/list') step = 'listing'
    else if (step === 'listing' && endpoint === 'fill/list') {
      step = 'opened'
      started.broker?.setPrice('MNQZ6', '20975') // the limit fills: +5
    } else if (step === 'opened' && endpoint === 'position/list') {
      step = 'closed'
      started.broker?.setPrice('MNQZ6', '20900') // its stop (20925) fills: flat again
    }
  }
  const { app, db, broker } = await reconcilingTrader(t, undefined, { onRequest })
  started.broker = broker
  const entry = mnqEntry({ entryPrice: 20975, sl: 20925, tp: 21075, raw: { orderType: 'limit' } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'placed', 'the limit entry rests at the broker')

  step = 'armed'
  await eventually(() => step === 'closed', 10_000)
  // That pass is over once the positions have been read twice more (the next pass's first and second reads).
  const seen = broker.requests.length
  await eventually(() => broker.requests.slice(seen).filter((request) => request.endpoint === 'position/list').length >= 2, 20_000)
  const trade = await tradeOfRecord(db, record.id)
  t.match(trade, { status: 'closed', result: 'SL' }, 'the trade closed by its stop')
  t.not(trade?.pnl ?? null, null, 'with the PnL its stop made')
  t.same((await discrepancies(db)).map((row) => `${row.kind}: ${row.reason}`), [], 'no difference told: the position moved during the pass')
})
