import t, { type Test } from 'tap'
import { build } from './helper.ts'

// Issue 15 point 6: auth believes forwarding headers (client address, https) from the gateway alone.
async function loggedAddress(t: Test, overrides: Record<string, string>, remoteAddress: string) {
  const lines: string[] = []
  const loggerStream = { write: (line: string) => lines.push(line) } as unknown as NodeJS.WritableStream
  const { app } = await build(t, { LOG_LEVEL: 'info', ...overrides }, { loggerStream })
  await app.inject({ method: 'GET', url: '/auth/me', remoteAddress, headers: { 'x-forwarded-for': '52.89.214.238', 'x-forwarded-proto': 'https' } })
  const incoming = lines.map((line) => JSON.parse(line) as { msg?: string; req?: { remoteAddress?: string } }).find((line) => line.msg === 'incoming request')
  return incoming?.req?.remoteAddress
}

t.test('a peer that is not the configured gateway cannot name its own address', async (t) => {
  t.equal(await loggedAddress(t, {}, '203.0.113.5'), '203.0.113.5', 'X-Forwarded-For from a stranger is ignored')
  t.equal(await loggedAddress(t, {}, '127.0.0.1'), '52.89.214.238', 'the gateway on this host (the default) is believed')
  t.equal(await loggedAddress(t, { AUTH_TRUSTED_PROXY: '10.20.0.0/16' }, '10.20.3.4'), '52.89.214.238', 'a configured gateway address is believed')
  t.equal(await loggedAddress(t, { AUTH_TRUSTED_PROXY: '10.20.0.0/16' }, '127.0.0.1'), '127.0.0.1', 'only the configured ones')
})
