import { Env, loadConfig, Type, type Static } from '@signals/config'

/**
 * Everything the ingest service reads from its environment. The `INGEST_*` and `ALERT_MAX_AGE_SECONDS`
 * variables belong to ingest alone (docs/decisions/ingest.md explains each):
 *
 * - INGEST_BODY_LIMIT: largest webhook body in bytes (65536); a larger one gets 413.
 * - INGEST_RATE_LIMIT_PER_MINUTE: webhooks one client address may send per minute (1200); 0 turns the
 *   limit off. Counted in memory per instance: ingest keeps no Redis. TradingView posts every user's
 *   alerts from the same four addresses, so size it for the whole platform, not for one trader.
 * - INGEST_TRUSTED_PROXY: comma-separated addresses/CIDRs of proxies (the gateway, a load balancer) whose
 *   `X-Forwarded-For` is believed; unset = the socket address is the client.
 * - INGEST_ALLOWED_SOURCES: comma-separated client addresses/CIDRs allowed to post webhooks; unset = all.
 *   TradingView's published sources: `52.89.214.238,34.212.75.30,54.218.53.128,52.32.178.7`.
 * - ALLOW_OPEN_WEBHOOK: `true` lets production run without WEBHOOK_SECRET (read by the config loader's
 *   production rules; refused otherwise).
 * - INTERNAL_AUTH_SECRET: checks the client address the gateway signs (X-Signals-Client-Address).
 * - HTTP_REQUEST_TIMEOUT_MS, HTTP_HEADERS_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS, HTTP_MAX_CONNECTIONS_PER_ADDRESS:
 *   the public server's time-outs and connection limit (packages/config/src/variables.ts;
 *   docs/decisions/deployment.md).
 * - INGEST_REFUSED_BODY_BYTES: how much of a refused request's body the intake log keeps (2048 bytes, cut
 *   on a character boundary); an accepted alert's body is kept whole.
 * - INGEST_ALERTS_STREAM_MAX_BYTES, INGEST_INTAKE_STREAM_MAX_BYTES: byte bounds of the ALERTS and INTAKE
 *   streams ingest writes (unset: the bound the stream has, 512 MiB and 256 MiB when new); the oldest
 *   messages are discarded beyond it.
 * - ALERT_MAX_AGE_SECONDS: refuse an alert whose own timestamp (`time`, `timenow`, `timestamp`) is older;
 *   unset = no age check.
 */
/** One IPv4 or IPv6 address, optionally a CIDR prefix. */
const ADDRESS = '(\\d{1,3}(\\.\\d{1,3}){3}|[0-9a-fA-F]*:[0-9a-fA-F:.]*)(/\\d{1,3})?'
const ADDRESS_LIST = `^\\s*${ADDRESS}(\\s*,\\s*${ADDRESS})*\\s*$`

export const ConfigSchema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  LOG_LEVEL: Env.LOG_LEVEL,
  HOST: Env.HOST,
  INGEST_HOST: Env.INGEST_HOST,
  INGEST_PORT: Env.INGEST_PORT,
  NATS_URL: Env.NATS_URL,
  NATS_USER: Env.NATS_USER,
  NATS_PASSWORD: Env.NATS_PASSWORD,
  NATS_TOKEN: Env.NATS_TOKEN,
  BUS_NAMESPACE: Env.BUS_NAMESPACE,
  BUS_REPLICAS: Env.BUS_REPLICAS,
  PREMIUM_INDICATORS: Env.PREMIUM_INDICATORS,
  WEBHOOK_SECRET: Env.WEBHOOK_SECRET,
  /** Checks the client address the gateway signs for every webhook it forwards. */
  INTERNAL_AUTH_SECRET: Env.INTERNAL_AUTH_SECRET,
  /** `/metrics` and `/ready` detail need `Authorization: Bearer <METRICS_TOKEN>` (unset: never served). */
  METRICS_TOKEN: Env.METRICS_TOKEN,
  HTTP_REQUEST_TIMEOUT_MS: Env.HTTP_REQUEST_TIMEOUT_MS,
  HTTP_HEADERS_TIMEOUT_MS: Env.HTTP_HEADERS_TIMEOUT_MS,
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: Env.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
  INGEST_BODY_LIMIT: Type.Integer({ minimum: 1024, maximum: 1024 * 1024, default: 64 * 1024, description: 'largest webhook body in bytes' }),
  INGEST_RATE_LIMIT_PER_MINUTE: Type.Integer({
    minimum: 0,
    default: 1200,
    description: 'webhooks per client address per minute (0 = off)',
  }),
  INGEST_TRUSTED_PROXY: Type.Optional(
    Type.String({ pattern: ADDRESS_LIST, description: 'proxy addresses/CIDRs whose X-Forwarded-For is believed', 'x-expected': 'comma-separated IP addresses or CIDRs' }),
  ),
  INGEST_ALLOWED_SOURCES: Type.Optional(
    Type.String({ pattern: ADDRESS_LIST, description: 'client addresses/CIDRs allowed to post webhooks (unset = all)', 'x-expected': 'comma-separated IP addresses or CIDRs' }),
  ),
  INGEST_REFUSED_BODY_BYTES: Type.Integer({ minimum: 0, maximum: 1024 * 1024, default: 2048, description: "bytes of a refused request's body the intake log keeps" }),
  INGEST_ALERTS_STREAM_MAX_BYTES: Type.Optional(Type.Integer({ minimum: 1024 * 1024, description: 'byte bound of the ALERTS stream (unset: as it is)' })),
  INGEST_INTAKE_STREAM_MAX_BYTES: Type.Optional(Type.Integer({ minimum: 1024 * 1024, description: 'byte bound of the INTAKE stream (unset: as it is)' })),
  ALERT_MAX_AGE_SECONDS: Type.Optional(Type.Integer({ minimum: 1, description: 'refuse alerts whose own timestamp is older (unset = off)' })),
})

export type Config = Static<typeof ConfigSchema>

/** Reads and validates the ingest configuration from `env` (throws ConfigError naming every offender). */
export function loadIngestConfig(env: Record<string, string | undefined>): Config {
  return loadConfig(ConfigSchema, env)
}

/** Where the ingest listens: INGEST_HOST, else HOST (a public service; the internal ones never read HOST). */
export function listenHost(config: Pick<Config, 'HOST' | 'INGEST_HOST'>): string {
  return config.INGEST_HOST ?? config.HOST
}
