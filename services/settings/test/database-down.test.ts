import t from 'tap'
import { ensureDatabase, migrateToLatest } from '@signals/db'
import { startPrivatePostgres } from '@signals/test-support'
import { build } from './helper.ts'
import { STORAGE_FAILURE_MESSAGE } from '../src/storage-failure.ts'

t.test('with Postgres down every settings route answers 500 {success:false, error} naming no internals', async (t) => {
  const postgres = await startPrivatePostgres()
  t.teardown(() => postgres.destroy())
  const url = `${postgres.url}/signals`
  await ensureDatabase(url)
  const { error } = await migrateToLatest(url)
  t.error(error, 'migrated')
  const { app, createUser } = await build(t, { overrides: { DATABASE_URL: url } })
  const headers = await createUser('uma')
  t.equal((await app.inject({ method: 'GET', url: '/api/trading-settings', headers })).statusCode, 200, 'works while up')

  await postgres.stop()
  const calls = [
    { method: 'GET', url: '/api/trading-settings' },
    { method: 'POST', url: '/api/trading-settings', payload: { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } } },
    { method: 'GET', url: '/api/live-trading-status' },
    { method: 'GET', url: '/api/risk-engine/config' },
    { method: 'GET', url: '/api/broker-credentials' },
    { method: 'PUT', url: '/api/broker-credentials', payload: { broker: 'paper', environment: 'demo', accountId: 'P', username: 'u', password: 'p' } },
    { method: 'DELETE', url: '/api/broker-credentials' },
  ] as const
  for (const call of calls) {
    const response = await app.inject({ ...call, headers })
    t.equal(response.statusCode, 500, `${call.method} ${call.url}`)
    t.same(response.json(), { success: false, error: STORAGE_FAILURE_MESSAGE })
    t.notMatch(response.body, /ECONNREFUSED|127\.0\.0\.1|postgres|trading_settings|select|insert|\d{4,5}/i, 'no host, port, table or SQL')
  }
  t.equal((await app.inject({ method: 'GET', url: '/ready' })).statusCode, 503, '/ready says the dependency is down')
  t.equal((await app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: { settingKey: 'nope', settingValue: {} } })).statusCode, 400, 'bad input is still a 400')

  await postgres.start()
  let recovered = 0
  for (let attempt = 0; attempt < 20 && recovered !== 200; attempt++) {
    recovered = (await app.inject({ method: 'GET', url: '/api/trading-settings', headers })).statusCode
    if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 250))
  }
  t.equal(recovered, 200, 'serves again once Postgres is back')
})
