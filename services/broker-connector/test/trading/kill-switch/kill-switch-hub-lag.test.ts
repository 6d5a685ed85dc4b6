import t from 'tap'
import { identityHeaders } from '../../helper.ts'
import { connectedProjectXTrader, eventually, netMnq } from '../../feeds/broker/projectx/helper.ts'

/**
 * The kill switch on a ProjectX account whose user hub lags: a position the trader just opened on the
 * platform is not in the session's hub-kept state yet, and is flattened all the same (the kill switch reads
 * the broker's positions and orders fresh, docs/decisions/projectx-adapter.md).
 */
t.test('kill switch (ProjectX): a position opened by hand that the lagging hub has not told yet is flattened', async (t) => {
  const { broker, app, config } = await connectedProjectXTrader(t)
  broker.delayUserHub(5_000)
  broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 0, size: 2 })
  t.equal(netMnq(broker), 2, 'the broker holds 2 MNQ, bought by hand')
  const response = await app.inject({ method: 'POST', url: '/api/kill-switch', headers: identityHeaders(config, 'u-0') })
  t.equal(response.statusCode, 200, response.body)
  t.match(response.json(), { success: true, killSwitch: { outcome: 'done', detail: /1 other position\(s\) flattened/ } })
  await eventually(() => netMnq(broker) === 0)
  t.equal(netMnq(broker), 0, 'flat at the broker')
})
