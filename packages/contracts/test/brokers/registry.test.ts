import t from 'tap'
import {
  BROKERS,
  BROKER_NAMES,
  BrokerInfo,
  BrokerName,
  brokerInfos,
  checkBrokerCredentials,
  contract,
  openedCredentialsOf,
  sealedCredentialsOf,
} from '../../src/index.ts'

t.test('BrokerName is the registry: its keys, in order, and nothing else', async (t) => {
  t.same(BROKER_NAMES, Object.keys(BROKERS))
  const name = contract(BrokerName)
  for (const broker of BROKER_NAMES) t.ok(name.check(broker), `${broker} is a BrokerName`)
  t.notOk(name.check('ibkr'), 'a name outside the registry is not')
})

t.test('a credentials field two brokers share has one schema (settings merges them into one body)', async (t) => {
  const seen = new Map<string, { broker: string; schema: string }>()
  for (const broker of BROKER_NAMES) {
    for (const [field, schema] of Object.entries(BROKERS[broker].credentials.properties)) {
      const text = JSON.stringify({ ...schema, '~optional': undefined })
      const first = seen.get(field)
      if (first) t.equal(text, first.schema, `${field}: ${broker} and ${first.broker} agree`)
      else seen.set(field, { broker, schema: text })
    }
  }
  t.ok(seen.has('username') && seen.has('password'))
})

t.test("every broker's form and capabilities fit the response schema; Tradovate's form reads from its schema", async (t) => {
  const info = contract(BrokerInfo)
  for (const broker of brokerInfos()) t.equal(info.problem(broker), null, broker.name)
  const tradovate = brokerInfos().find((broker) => broker.name === 'tradovate')
  t.same(
    tradovate?.fields.map((field) => [field.name, field.required, field.secret, field.maxLength]),
    [
      ['username', true, false, 255],
      ['password', true, true, 512],
      ['appId', true, false, 255],
      ['appVersion', true, false, 64],
      ['cid', true, true, 512],
      ['sec', true, true, 512],
      ['deviceId', false, false, 255],
    ],
  )
  t.equal(tradovate?.fields[4]?.label, 'Client id (cid)')
  t.same(tradovate?.capabilities, { brackets: ['oso'], modify: true, trailing: true, partialClose: false })
  const paper = brokerInfos().find((broker) => broker.name === 'paper')
  t.same(paper?.fields.filter((field) => field.required).map((field) => field.name), ['username', 'password'], 'the paper broker needs no API client')
})

t.test('credentials are checked against the chosen broker, naming the field', async (t) => {
  const tradovate = { username: 'ada', password: 'pw', appId: 'app', appVersion: '1.0', cid: 8, sec: 's' }
  const { appId: _appId, ...withoutAppId } = tradovate
  t.same(checkBrokerCredentials('tradovate', withoutAppId), { ok: false, problem: 'appId is required for broker tradovate' })
  t.same(checkBrokerCredentials('paper', { ...withoutAppId }), { ok: true, credentials: withoutAppId })
  t.same(checkBrokerCredentials('tradovate', { ...tradovate, apiKey: 'k' }), { ok: false, problem: 'apiKey is not a field of broker tradovate' })
  t.same(checkBrokerCredentials('tradovate', { ...tradovate, cid: 0 }).ok, false, 'a cid below 1 is refused')
  t.match(checkBrokerCredentials('tradovate', { ...tradovate, appVersion: 'x'.repeat(65) }), { ok: false, problem: /^appVersion .* for broker tradovate$/ })
})

t.test('sealed credentials hold every field of the broker (null when left out) and open back into a login', async (t) => {
  const sealed = sealedCredentialsOf('paper', { username: 'ada', password: 'pw' })
  t.same(sealed, { username: 'ada', password: 'pw', appId: null, appVersion: null, cid: null, sec: null, deviceId: null })
  t.same(openedCredentialsOf('paper', sealed), { ok: true, credentials: sealed })
  t.same(openedCredentialsOf('tradovate', sealed), { ok: false, problem: 'appId is required for broker tradovate' }, 'the broker the row names decides')
  t.same(openedCredentialsOf('paper', { ...sealed, password: null }), { ok: false, problem: 'password is required for broker paper' })
})
