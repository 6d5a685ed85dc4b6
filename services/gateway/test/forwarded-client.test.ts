import t from 'tap'
import { loadConfig, ConfigError } from '@signals/config'
import { CLIENT_ADDRESS_HEADER, verifyClientAddress } from '@signals/http-kit'
import { ConfigSchema } from '../src/config.ts'
import { INTERNAL_AUTH_SECRET, startPlatform, type Echo } from './helper.ts'

// Issue 15 point 3: the gateway believes exactly the configured proxy hops, and tells ingest the client
// address in a header only the gateway can sign.
const webhook = (gateway: Awaited<ReturnType<typeof startPlatform>>['gateway'], headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
  gateway.inject({ method: 'POST', url: '/webhook/alert', remoteAddress, headers: { 'content-type': 'application/json', ...headers }, payload: '{}' })

t.test('TRUST_PROXY=true (believe any X-Forwarded-For) is refused at start', async (t) => {
  t.throws(() => loadConfig(ConfigSchema, { TRUST_PROXY: 'true' }), ConfigError)
  t.throws(() => loadConfig(ConfigSchema, { TRUST_PROXY: '1' }), ConfigError, 'a bare hop count cannot check who the peer is')
  t.equal(loadConfig(ConfigSchema, { TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY, '10.0.0.0/8, 127.0.0.1')
})

t.test('one trusted hop: the address the load balancer saw is the client, whatever the client prepended', async (t) => {
  const { gateway } = await startPlatform(t, { TRUST_PROXY: '127.0.0.1' })
  const response = await webhook(gateway, { 'x-forwarded-for': '52.89.214.238, 203.0.113.5', [CLIENT_ADDRESS_HEADER]: 'forged' })
  const echo = response.json<Echo>()
  t.equal(verifyClientAddress(echo.headers[CLIENT_ADDRESS_HEADER] as string, INTERNAL_AUTH_SECRET), '203.0.113.5')
  t.equal(echo.headers['x-forwarded-for'], '203.0.113.5')
})

t.test('a listed proxy address is believed; any other peer is the client itself', async (t) => {
  const { gateway } = await startPlatform(t, { TRUST_PROXY: '10.0.0.1' })
  const viaProxy = (await webhook(gateway, { 'x-forwarded-for': '198.51.100.9' }, '10.0.0.1')).json<Echo>()
  t.equal(verifyClientAddress(viaProxy.headers[CLIENT_ADDRESS_HEADER] as string, INTERNAL_AUTH_SECRET), '198.51.100.9')
  const direct = (await webhook(gateway, { 'x-forwarded-for': '52.89.214.238' }, '203.0.113.8')).json<Echo>()
  t.equal(verifyClientAddress(direct.headers[CLIENT_ADDRESS_HEADER] as string, INTERNAL_AUTH_SECRET), '203.0.113.8')
})

t.test('no TRUST_PROXY: X-Forwarded-For is ignored', async (t) => {
  const { gateway } = await startPlatform(t)
  const echo = (await webhook(gateway, { 'x-forwarded-for': '52.89.214.238' }, '203.0.113.9')).json<Echo>()
  t.equal(verifyClientAddress(echo.headers[CLIENT_ADDRESS_HEADER] as string, INTERNAL_AUTH_SECRET), '203.0.113.9')
})
