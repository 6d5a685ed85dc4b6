import t from 'tap'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '@signals/config'
import { ConfigSchema as Gateway, listenHost as gatewayHost } from '../../services/gateway/src/config.ts'
import { ConfigSchema as Ingest, listenHost as ingestHost } from '../../services/ingest/src/config.ts'
import { ConfigSchema as Auth } from '../../services/auth/src/config.ts'
import { ConfigSchema as Settings } from '../../services/settings/src/config.ts'
import { ConfigSchema as Admin } from '../../services/admin/src/config.ts'
import { ConfigSchema as Connector } from '../../services/broker-connector/src/config.ts'

// Issue 15 point 6: every service has its own listen address; HOST=0.0.0.0 for the gateway opens no other.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const mainOf = (service: string) => readFileSync(path.join(root, 'services', service, 'src', 'main.ts'), 'utf8')

t.test('HOST=0.0.0.0 opens the public services only', async (t) => {
  const env = { HOST: '0.0.0.0' }
  t.equal(gatewayHost(loadConfig(Gateway, env)), '0.0.0.0')
  t.equal(ingestHost(loadConfig(Ingest, env)), '0.0.0.0')
  t.equal(loadConfig(Auth, env).AUTH_HOST, '127.0.0.1')
  t.equal(loadConfig(Settings, env).SETTINGS_HOST, '127.0.0.1')
  t.equal(loadConfig(Admin, env).ADMIN_HOST, '127.0.0.1')
  t.equal(loadConfig(Connector, env).BROKER_CONNECTOR_HOST, '127.0.0.1')
})

t.test("each service's own variable decides, and its main listens there", async (t) => {
  t.equal(gatewayHost(loadConfig(Gateway, { HOST: '0.0.0.0', GATEWAY_HOST: '10.0.0.5' })), '10.0.0.5')
  t.equal(ingestHost(loadConfig(Ingest, {})), '127.0.0.1', 'loopback by default')
  t.equal(loadConfig(Auth, { AUTH_HOST: '10.0.0.6' }).AUTH_HOST, '10.0.0.6')
  for (const [service, variable] of [['auth', 'AUTH_HOST'], ['settings', 'SETTINGS_HOST'], ['admin', 'ADMIN_HOST'], ['broker-connector', 'BROKER_CONNECTOR_HOST']] as const) {
    t.match(mainOf(service), `host: config.${variable},`, `${service} listens on ${variable}`)
  }
  for (const service of ['gateway', 'ingest']) t.match(mainOf(service), 'host: listenHost(config),', `${service} listens on its own host`)
})
