import Type from 'typebox'

/**
 * The platform's environment variables, one TypeBox schema each, named as in DESIGN.md.
 * Services compose the ones they need with `Type.Object({...})`.
 *
 * `x-secret: true` marks a variable whose development default must never be used in production;
 * `x-dev-default` holds that development default (kept out of `default` so production sees none).
 * `x-sensitive: true` keeps a value out of error messages.
 */
const port = (fallback: number, description: string) =>
  Type.Integer({ minimum: 1, maximum: 65535, default: fallback, description })

/** A URL setting of the given protocols; its error names them (`a http or https URL`). */
export const url = (protocols: readonly string[], fallback: string, description: string) =>
  Type.String({
    pattern: `^(${protocols.join('|')})://[^\\s]+$`,
    default: fallback,
    description,
    'x-expected': `a ${protocols.join(' or ')} URL`,
  })

/**
 * Where one service reaches another (`http://127.0.0.1:<port>`). Unless set, it follows that service's
 * port variable (`x-port-variable`), so moving the ports alone cannot cross-wire the platform.
 */
const serviceUrl = (portVariable: string, fallbackPort: number, description: string) =>
  Type.String({ ...url(['http', 'https'], `http://127.0.0.1:${fallbackPort}`, description), 'x-port-variable': portVariable })

const devSecret = (devDefault: string, minLength: number, description: string) =>
  Type.String({ minLength, 'x-secret': true, 'x-sensitive': true, 'x-dev-default': devDefault, description })

/** One NATS server URL, inside a comma-separated list. */
const NATS_SERVER = '(nats|tls)://[^\\s,]+'

const csv = (description: string) => Type.String({ default: '', description })

export const Env = {
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('test'), Type.Literal('production')], {
    default: 'development',
  }),
  LOG_LEVEL: Type.Union(
    [
      Type.Literal('fatal'),
      Type.Literal('error'),
      Type.Literal('warn'),
      Type.Literal('info'),
      Type.Literal('debug'),
      Type.Literal('trace'),
      Type.Literal('silent'),
    ],
    { default: 'info' },
  ),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'interface the public services (gateway, ingest) listen on unless their own variable says' }),
  /** Each service's own listen address. The public ones fall back to HOST; the internal ones never do. */
  GATEWAY_HOST: Type.Optional(Type.String({ minLength: 1, description: 'interface the gateway listens on (default: HOST)' })),
  INGEST_HOST: Type.Optional(Type.String({ minLength: 1, description: 'interface ingest listens on (default: HOST)' })),
  AUTH_HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'interface auth listens on (internal)' }),
  SETTINGS_HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'interface settings listens on (internal)' }),
  ADMIN_HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'interface admin listens on (internal)' }),
  BROKER_CONNECTOR_HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'interface the broker connector listens on (internal)' }),

  DATABASE_URL: url(['postgres', 'postgresql'], 'postgres://postgres@127.0.0.1:5432/signals', 'Postgres'),
  /** `redis://user:password@host:6379` logs in as a Redis ACL user (`redis://:password@host` as the default user). */
  REDIS_URL: url(['redis', 'rediss'], 'redis://127.0.0.1:6379', 'sessions, user status, rate limits'),
  /** One server, or every node of a cluster separated by commas: the client reconnects to any of them. */
  NATS_URL: Type.String({
    pattern: `^${NATS_SERVER}(\\s*,\\s*${NATS_SERVER})*$`,
    default: 'nats://127.0.0.1:4222',
    description: 'JetStream: one URL or a comma-separated list of the cluster nodes',
    'x-expected': 'a nats or tls URL, or a comma-separated list of them',
  }),
  /**
   * NATS credentials kept out of NATS_URL (a Kubernetes Secret gives them as variables): a user and
   * password, or a token. They may instead be written in NATS_URL (`nats://user:pass@host:4222`), not both.
   */
  NATS_USER: Type.Optional(Type.String({ minLength: 1, description: 'NATS user (with NATS_PASSWORD)' })),
  NATS_PASSWORD: Type.Optional(Type.String({ minLength: 1, 'x-sensitive': true, description: 'NATS password (with NATS_USER)' })),
  NATS_TOKEN: Type.Optional(Type.String({ minLength: 1, 'x-sensitive': true, description: 'NATS token (instead of a user and password)' })),
  /** Servers each stream and key-value bucket is stored on: 1 on a single server, 3 on a three-node cluster. */
  BUS_REPLICAS: Type.Integer({ minimum: 1, maximum: 5, default: 1, description: 'JetStream replicas per stream and bucket' }),
  /** Prefix for stream names and subjects; lets tests share one server without crossing streams. */
  BUS_NAMESPACE: Type.String({ default: '', pattern: '^[a-z0-9_]*$', description: 'stream and subject prefix' }),

  PUBLIC_URL: url(['http', 'https'], 'http://localhost:3000', "the gateway's external URL"),
  OIDC_ISSUER: url(['http', 'https'], 'http://localhost:3010', 'OpenID Connect issuer'),
  OIDC_CLIENT_ID: Type.String({ minLength: 1, default: 'signals-dev', description: 'OAuth client id' }),
  OIDC_CLIENT_SECRET: devSecret('signals-dev-client-secret', 8, 'OAuth client secret'),
  ADMIN_EMAIL: Type.String({ default: 'admin@example.com', description: 'comma-separated administrator e-mails' }),

  SESSION_SECRET: devSecret('development-only-session-secret-0123456789', 32, 'cookie signing'),
  INTERNAL_AUTH_SECRET: devSecret(
    'development-only-internal-auth-secret-0123456789',
    32,
    'signs the identity header the gateway passes to services',
  ),
  CREDENTIALS_KEY: devSecret(
    // 32 bytes, base64: development only.
    'ZGV2ZWxvcG1lbnQtb25seS1jcmVkZW50aWFscy1rZXk=',
    44,
    'base64 32-byte key for broker credentials at rest (AES-256-GCM)',
  ),
  CREDENTIALS_PREVIOUS_KEYS: Type.String({
    default: '',
    'x-sensitive': true,
    description: 'older keys still accepted for reading, as id:base64,id:base64 (key rotation)',
  }),
  CREDENTIALS_KEY_ID: Type.String({ default: 'k1', pattern: '^[A-Za-z0-9_-]{1,32}$', description: 'id of CREDENTIALS_KEY' }),

  METRICS_TOKEN: Type.Optional(
    Type.String({ minLength: 16, 'x-sensitive': true, description: 'Bearer token for /metrics and /ready detail on the gateway and ingest' }),
  ),
  PREMIUM_INDICATORS: csv('indicator names routed to the test handler'),
  WEBHOOK_SECRET: Type.Optional(
    Type.String({ minLength: 8, 'x-sensitive': true, description: 'required on every webhook when set' }),
  ),
  ALERT_ROUTING: Type.Union([Type.Literal('fanout'), Type.Literal('targeted')], {
    default: 'fanout',
    description: 'fanout: every live user; targeted: only the payload user',
  }),

  /**
   * Time-outs of the public servers (gateway, ingest; docs/decisions/deployment.md). Fastify's default
   * request time-out is none: a client sending one body byte every few seconds held a connection for ever.
   */
  HTTP_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000, description: 'most time to receive a whole request, body included (408 after)' }),
  HTTP_HEADERS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 10_000, description: "most time to receive a request's headers (at most HTTP_REQUEST_TIMEOUT_MS)" }),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: Type.Integer({ minimum: 0, maximum: 100_000, default: 0, description: 'open connections one client address may hold (0 = no limit: behind a proxy every client shares its address)' }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ minimum: 1_000, maximum: 600_000, default: 72_000, description: 'how long an idle keep-alive connection stays open (above a load balancer\'s idle time-out)' }),

  GATEWAY_PORT: port(3000, 'gateway (public)'),
  INGEST_PORT: port(3001, 'ingest (public)'),
  AUTH_PORT: port(3002, 'auth (internal)'),
  SETTINGS_PORT: port(3003, 'settings (internal)'),
  ADMIN_PORT: port(3004, 'admin (internal)'),
  BROKER_CONNECTOR_PORT: port(3005, 'broker connector (internal)'),
  AUTH_URL: serviceUrl('AUTH_PORT', 3002, 'where the gateway reaches auth (default: AUTH_PORT on 127.0.0.1)'),
  SETTINGS_URL: serviceUrl('SETTINGS_PORT', 3003, 'where the gateway reaches settings (default: SETTINGS_PORT on 127.0.0.1)'),
  ADMIN_URL: serviceUrl('ADMIN_PORT', 3004, 'where the gateway reaches admin (default: ADMIN_PORT on 127.0.0.1)'),
  INGEST_URL: serviceUrl('INGEST_PORT', 3001, 'where the gateway and admin reach ingest (default: INGEST_PORT on 127.0.0.1)'),
  BROKER_CONNECTOR_URL: serviceUrl('BROKER_CONNECTOR_PORT', 3005, 'where the gateway reaches the connector (default: BROKER_CONNECTOR_PORT on 127.0.0.1)'),
} as const

export type EnvName = keyof typeof Env

/** Splits a comma-separated variable into trimmed, non-empty entries. */
export function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
}
