import t from 'tap'
import { ConfigError, Env, Type, listOf, loadConfig, refuseSharedPorts } from '../src/index.ts'

const Schema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  DATABASE_URL: Env.DATABASE_URL,
  NATS_URL: Env.NATS_URL,
  GATEWAY_PORT: Env.GATEWAY_PORT,
  SESSION_SECRET: Env.SESSION_SECRET,
  CREDENTIALS_KEY: Env.CREDENTIALS_KEY,
  WEBHOOK_SECRET: Env.WEBHOOK_SECRET,
})

t.test('development defaults fill every variable that is not set', async (t) => {
  const config = loadConfig(Schema, {})
  t.equal(config.NODE_ENV, 'development')
  t.equal(config.DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/signals')
  t.equal(config.NATS_URL, 'nats://127.0.0.1:4222')
  t.equal(config.GATEWAY_PORT, 3000)
  t.ok(config.SESSION_SECRET.length >= 32, 'a development session secret is provided')
  t.equal(config.WEBHOOK_SECRET, undefined, 'optional variables stay unset')
})

t.test('values from the environment are converted to their types', async (t) => {
  const config = loadConfig(Schema, { GATEWAY_PORT: '8080', DATABASE_URL: 'postgresql://u@db:5432/x' })
  t.equal(config.GATEWAY_PORT, 8080)
  t.equal(config.DATABASE_URL, 'postgresql://u@db:5432/x')
})

t.test('one error names every bad or missing variable', async (t) => {
  const error = t.throws(() =>
    loadConfig(Schema, {
      NODE_ENV: 'production',
      DATABASE_URL: 'mysql://nope',
      GATEWAY_PORT: 'eighty',
      WEBHOOK_SECRET: 'short',
    }),
  ) as ConfigError
  t.type(error, ConfigError)
  t.same([...error.offenders].sort(), ['CREDENTIALS_KEY', 'DATABASE_URL', 'GATEWAY_PORT', 'SESSION_SECRET', 'WEBHOOK_SECRET'])
  t.match(error.message, /DATABASE_URL: "mysql:\/\/nope" is not valid: expected a postgres or postgresql URL/)
  t.match(error.message, /SESSION_SECRET: is required in production/)
  t.match(error.message, /CREDENTIALS_KEY: is required in production/)
  t.match(error.message, /GATEWAY_PORT: "eighty" is not valid/)
  t.notMatch(error.message, /short/, 'a secret value is never echoed')
})

t.test('production accepts secrets that are set', async (t) => {
  const config = loadConfig(Schema, {
    NODE_ENV: 'production',
    SESSION_SECRET: 'x'.repeat(40),
    CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64'),
    ALLOW_OPEN_WEBHOOK: 'true',
  })
  t.equal(config.SESSION_SECRET, 'x'.repeat(40))
})

t.test('a port out of range is refused', async (t) => {
  t.throws(() => loadConfig(Schema, { GATEWAY_PORT: '70000' }), /GATEWAY_PORT/)
})

t.test('listOf splits comma-separated values', async (t) => {
  t.same(listOf(' a@x.com, B@y.com ,,'), ['a@x.com', 'B@y.com'])
  t.same(listOf(undefined), [])
})

t.test('NATS_URL takes one server or a comma-separated list of cluster nodes', async (t) => {
  const cluster = 'nats://10.0.0.1:4222,nats://10.0.0.2:4222, tls://nats-3.internal:4222'
  t.equal(loadConfig(Schema, { NATS_URL: cluster }).NATS_URL, cluster, 'a list is kept as written (the bus splits it)')
  t.equal(loadConfig(Schema, { NATS_URL: 'tls://nats.internal:4222' }).NATS_URL, 'tls://nats.internal:4222')
  const error = t.throws(() => loadConfig(Schema, { NATS_URL: 'nats://10.0.0.1:4222,http://10.0.0.2:4222' })) as ConfigError
  t.same([...error.offenders], ['NATS_URL'])
  t.match(error.message, /NATS_URL: .* expected a nats or tls URL, or a comma-separated list of them/)
  t.throws(() => loadConfig(Schema, { NATS_URL: 'nats://10.0.0.1:4222,' }), /NATS_URL/, 'an empty entry is refused')
})

t.test('BUS_REPLICAS defaults to 1 and takes 1 to 5', async (t) => {
  const ReplicaSchema = Type.Object({ BUS_REPLICAS: Env.BUS_REPLICAS })
  t.equal(loadConfig(ReplicaSchema, {}).BUS_REPLICAS, 1)
  t.equal(loadConfig(ReplicaSchema, { BUS_REPLICAS: '3' }).BUS_REPLICAS, 3)
  t.throws(() => loadConfig(ReplicaSchema, { BUS_REPLICAS: '0' }), /BUS_REPLICAS/)
  t.throws(() => loadConfig(ReplicaSchema, { BUS_REPLICAS: '6' }), /BUS_REPLICAS/)
  t.throws(() => loadConfig(ReplicaSchema, { BUS_REPLICAS: 'three' }), /BUS_REPLICAS/)
})

t.test('every bad variable is reported at once, enumerated ones with their allowed values (issue 21 item 4)', async (t) => {
  const schema = Type.Object({ NODE_ENV: Env.NODE_ENV, LOG_LEVEL: Env.LOG_LEVEL, ALERT_ROUTING: Env.ALERT_ROUTING, GATEWAY_PORT: Env.GATEWAY_PORT, AUTH_URL: Env.AUTH_URL, BUS_REPLICAS: Env.BUS_REPLICAS })
  const error = t.throws(() =>
    loadConfig(schema, { NODE_ENV: 'prod', LOG_LEVEL: 'loud', ALERT_ROUTING: 'all', GATEWAY_PORT: 'eighty', AUTH_URL: 'ftp://auth', BUS_REPLICAS: '9' }),
  ) as ConfigError
  t.same([...error.offenders].sort(), ['ALERT_ROUTING', 'AUTH_URL', 'BUS_REPLICAS', 'GATEWAY_PORT', 'LOG_LEVEL', 'NODE_ENV'], 'a bad enumerated variable hides none of the others')
  t.match(error.message, /NODE_ENV: "prod" is not valid: expected one of development, test, production/)
  t.match(error.message, /LOG_LEVEL: "loud" is not valid: expected one of fatal, error, warn, info, debug, trace, silent/)
  t.match(error.message, /ALERT_ROUTING: "all" is not valid: expected one of fanout, targeted/)
  t.match(error.message, /AUTH_URL: "ftp:\/\/auth" is not valid: expected a http or https URL/)
})

t.test("each service URL left unset follows its service's port; a URL that is set wins (issue 21 item 4)", async (t) => {
  const schema = Type.Object({ AUTH_URL: Env.AUTH_URL, SETTINGS_URL: Env.SETTINGS_URL, ADMIN_URL: Env.ADMIN_URL, INGEST_URL: Env.INGEST_URL, BROKER_CONNECTOR_URL: Env.BROKER_CONNECTOR_URL })
  t.same(loadConfig(schema, {}), {
    AUTH_URL: 'http://127.0.0.1:3002',
    SETTINGS_URL: 'http://127.0.0.1:3003',
    ADMIN_URL: 'http://127.0.0.1:3004',
    INGEST_URL: 'http://127.0.0.1:3001',
    BROKER_CONNECTOR_URL: 'http://127.0.0.1:3005',
  })
  const moved = { AUTH_PORT: '4002', SETTINGS_PORT: '4003', ADMIN_PORT: '4004', INGEST_PORT: '4001', BROKER_CONNECTOR_PORT: '4005' }
  t.same(loadConfig(schema, moved), {
    AUTH_URL: 'http://127.0.0.1:4002',
    SETTINGS_URL: 'http://127.0.0.1:4003',
    ADMIN_URL: 'http://127.0.0.1:4004',
    INGEST_URL: 'http://127.0.0.1:4001',
    BROKER_CONNECTOR_URL: 'http://127.0.0.1:4005',
  })
  t.equal(loadConfig(schema, { ...moved, AUTH_URL: 'http://auth:3002' }).AUTH_URL, 'http://auth:3002', 'an explicit URL is kept')
})

t.test('two services on one port are refused, each named (issue 21 item 4)', async (t) => {
  t.doesNotThrow(() => refuseSharedPorts({ GATEWAY_PORT: 3000, INGEST_PORT: 3001, AUTH_PORT: 3002 }))
  const error = t.throws(() => refuseSharedPorts({ GATEWAY_PORT: 3000, INGEST_PORT: 3001, AUTH_PORT: 3001 })) as ConfigError
  t.same([...error.offenders], ['INGEST_PORT', 'AUTH_PORT'])
  t.match(error.message, /INGEST_PORT: 3001 is also AUTH_PORT/)
})
