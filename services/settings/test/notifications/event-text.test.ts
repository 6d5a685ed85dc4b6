import t from 'tap'
import { NOTIFICATION_EVENT_KINDS } from '@signals/contracts'
import { describeEvent } from '../../src/notifications/event-text.ts'

t.test('each event kind reads as a sentence, whatever details are missing', async (t) => {
  for (const kind of NOTIFICATION_EVENT_KINDS) {
    const { title, text } = describeEvent(kind, {})
    t.ok(title.length > 0 && !title.includes('undefined') && !title.includes('null'), `${kind}: ${title}`)
    t.notMatch(text, /undefined|null/, `${kind}: ${text}`)
  }
  t.equal(describeEvent('order_refused', { reason: 'Missing symbol.' }).title, 'Order refused: an alert', 'a refusal of an alert without action or symbol')
  t.same(describeEvent('order_failed', { action: 'SHORT', symbol: 'ES1!', reason: 'Broker refused.' }), { title: 'Order failed: SHORT ES1!', text: 'Broker refused.' })
  t.equal(describeEvent('trade_closed', { side: 'LONG', quantity: '1', contract: 'NQZ6', entryPrice: '1', exitPrice: '2', result: 'Session End', pnl: '-5.00', closeReason: 'The risk watchdog flattened the account.' }).text, 'LONG 1 NQZ6 from 1 to 2. The risk watchdog flattened the account.')
})
