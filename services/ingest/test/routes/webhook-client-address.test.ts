import t from 'tap'
import { CLIENT_ADDRESS_HEADER, signClientAddress } from '@signals/http-kit'
import { build } from '../helper.ts'
import { TRADINGVIEW_SOURCES, TRADINGVIEW_MIN_PER_MINUTE } from '../../src/http/source-allow-list.ts'

// Issue 15 point 3: the client address ingest counts and checks is the gateway's signed one, never a header
// anyone can set; TradingView's addresses are never limited below a platform-wide bar-close burst.
const SECRET = 'ingest-test-internal-auth-secret-0123456789'
const alert = { action: 'buy', symbol: 'NQ1!', user_id: 'u1' }

t.test('through the gateway each client has its own budget; an unsigned or forged address is ignored', async (t) => {
  const { app } = await build(t, { INGEST_RATE_LIMIT_PER_MINUTE: '2', INTERNAL_AUTH_SECRET: SECRET })
  const viaGateway = (client: string, n: number, signature = signClientAddress(client, SECRET)) =>
    app.inject({ method: 'POST', url: '/webhook/alert', remoteAddress: '10.9.0.2', headers: { [CLIENT_ADDRESS_HEADER]: signature }, payload: { ...alert, id: `g-${client}-${n}` } })
  t.equal((await viaGateway('198.51.100.1', 0)).statusCode, 200)
  t.equal((await viaGateway('198.51.100.1', 1)).statusCode, 200)
  t.equal((await viaGateway('198.51.100.1', 2)).statusCode, 429, 'the flooding client is limited')
  t.equal((await viaGateway('198.51.100.2', 0)).statusCode, 200, 'another client behind the same gateway is not')
  const forged = await viaGateway('198.51.100.3', 0, signClientAddress('198.51.100.3', 'not-the-internal-secret-not-the-internal'))
  t.equal(forged.statusCode, 200, 'a forged signature counts against the peer address instead')
  t.equal((await viaGateway('198.51.100.4', 0, 'garbage')).statusCode, 200)
  t.equal((await viaGateway('198.51.100.5', 0, 'garbage')).statusCode, 429, 'the peer (10.9.0.2) has now used its two')
})

t.test('a forged client address does not pass the source allow-list', async (t) => {
  const { app } = await build(t, { INGEST_ALLOWED_SOURCES: TRADINGVIEW_SOURCES.join(','), INTERNAL_AUTH_SECRET: SECRET })
  const post = (headers: Record<string, string>, remoteAddress = '203.0.113.7') =>
    app.inject({ method: 'POST', url: '/webhook/alert', remoteAddress, headers, payload: { ...alert, id: `al-${JSON.stringify(headers)}` } })
  t.equal((await post({ 'x-forwarded-for': '52.89.214.238' })).statusCode, 403, 'X-Forwarded-For from an untrusted peer')
  t.equal((await post({ [CLIENT_ADDRESS_HEADER]: signClientAddress('52.89.214.238', 'wrong-secret-wrong-secret-wrong-secret') })).statusCode, 403)
  t.equal((await post({ [CLIENT_ADDRESS_HEADER]: signClientAddress('52.89.214.238', SECRET, -1) })).statusCode, 403, 'an expired signature')
  t.equal((await post({ [CLIENT_ADDRESS_HEADER]: signClientAddress('52.89.214.238', SECRET) })).statusCode, 200, 'the gateway vouched for it')
})

t.test('TradingView addresses are never limited below the bar-close burst, whatever the common limit', async (t) => {
  t.ok(TRADINGVIEW_MIN_PER_MINUTE >= 30_000, 'the documented floor')
  t.same([...TRADINGVIEW_SOURCES].sort(), ['34.212.75.30', '52.32.178.7', '52.89.214.238', '54.218.53.128'])
  const { app } = await build(t, { INGEST_RATE_LIMIT_PER_MINUTE: '3' })
  for (let n = 0; n < 40; n++) {
    const response = await app.inject({ method: 'POST', url: '/webhook/alert', remoteAddress: '52.32.178.7', payload: { ...alert, id: `tv-${n}` } })
    if (response.statusCode !== 200) {
      t.fail(`alert ${n} from TradingView answered ${response.statusCode}`)
      return
    }
  }
  t.pass('40 alerts from one TradingView address in a minute, with a common limit of 3')
  t.equal((await app.inject({ method: 'POST', url: '/webhook/alert', remoteAddress: '192.0.2.50', payload: alert })).statusCode, 200)
})
