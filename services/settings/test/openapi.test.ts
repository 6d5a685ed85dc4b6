import t from 'tap'
import { build } from './helper.ts'

t.test('GET /openapi.json documents every /api route with its schemas, bounds and defaults', async (t) => {
  const { app } = await build(t)
  const response = await app.inject({ method: 'GET', url: '/openapi.json' })
  t.equal(response.statusCode, 200)
  const document = response.json()
  t.same(Object.keys(document.paths).sort(), [
    '/api/accounts',
    '/api/accounts/{id}',
    '/api/accounts/{id}/risk-engine/config',
    '/api/broker-credentials',
    '/api/broker-credentials/test',
    '/api/brokers',
    '/api/live-trading-status',
    '/api/notifications/channels',
    '/api/notifications/channels/{id}',
    '/api/notifications/channels/{id}/test',
    '/api/notifications/deliveries',
    '/api/risk-engine/config',
    '/api/risk-engine/presets',
    '/api/risk-engine/presets/{id}/apply',
    '/api/signal-sources',
    '/api/signal-sources/{id}',
    '/api/signal-sources/{id}/rotate',
    '/api/signal-sources/{id}/subscriptions',
    '/api/trading-settings',
  ])
  t.same(Object.keys(document.paths['/api/broker-credentials']).sort(), ['delete', 'get', 'put'])
  t.same(Object.keys(document.paths['/api/trading-settings']).sort(), ['get', 'post'])
  t.same(Object.keys(document.paths['/api/accounts/{id}']).sort(), ['delete', 'patch'])
  t.notOk(JSON.stringify(document.paths['/api/accounts'].get.responses['200']).includes('password'), 'no secret field in an account')
  const riskBody = document.paths['/api/risk-engine/config'].post.requestBody.content['application/json'].schema
  t.equal(riskBody.additionalProperties, false)
  t.match(riskBody.properties.limits.properties.maxRiskPerTradePercent, { minimum: 0.01, maximum: 10, default: 1 })
  t.match(riskBody.properties.trailingDrawdown.properties.mode, { default: 'end_of_day' })
  const status = document.paths['/api/live-trading-status'].get.responses['200'].content['application/json'].schema
  t.ok(status.properties.status.properties.indicator, 'the indicator is documented')
  t.same(Object.keys(document.paths['/api/notifications/channels/{id}']).sort(), ['delete', 'put'])
  const channelBody = document.paths['/api/notifications/channels'].post.requestBody.content['application/json'].schema
  t.equal(channelBody.oneOf.length, 4, 'one channel shape per kind')
  t.notOk(JSON.stringify(document.paths['/api/notifications/channels'].get.responses['200']).includes('botToken'), 'no secret field in a response')
  t.notOk(document.paths['/health'], 'only /api routes')
})
