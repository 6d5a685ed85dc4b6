import t from 'tap'
import { BROKER_NAMES } from '@signals/contracts'
import { build } from '../helper.ts'

t.test("GET /api/brokers lists each broker's form and capabilities; PUT checks the chosen broker's fields", async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('pia')

  const listed = await app.inject({ method: 'GET', url: '/api/brokers', headers })
  t.equal(listed.statusCode, 200)
  const { brokers } = listed.json() as { brokers: { name: string; fields: { name: string; required: boolean; secret: boolean }[]; capabilities: object }[] }
  t.same(brokers.map((broker) => broker.name), BROKER_NAMES, 'every broker of the registry, in its order')
  const tradovate = brokers.find((broker) => broker.name === 'tradovate')
  t.same(tradovate?.fields.filter((field) => field.secret).map((field) => field.name), ['password', 'cid', 'sec'])
  t.match(tradovate?.capabilities, { brackets: ['oso'], modify: true })
  t.equal((await app.inject({ method: 'GET', url: '/api/brokers' })).statusCode, 401, 'signed-in users only, like every /api route')

  const paper = { broker: 'paper', environment: 'demo', accountId: 'P1', username: 'ada', password: 'pw' }
  const required = await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: { ...paper, broker: 'tradovate' } })
  t.equal(required.statusCode, 400)
  t.same(required.json(), { success: false, error: 'Invalid broker credentials: appId is required for broker tradovate' })
  const saved = await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: paper })
  t.equal(saved.statusCode, 200, 'the fields the paper broker needs are enough for it')
})
