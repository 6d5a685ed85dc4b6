import { Env, Type, type Static } from '@signals/config'
import { SessionEnv } from '@signals/sessions'

/** Everything the gateway service reads from its environment. */
export const ConfigSchema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  LOG_LEVEL: Env.LOG_LEVEL,
  HOST: Env.HOST,
  GATEWAY_HOST: Env.GATEWAY_HOST,
  GATEWAY_PORT: Env.GATEWAY_PORT,
  REDIS_URL: Env.REDIS_URL,
  /** The bus: live-page change notices and the feed-status bucket. */
  NATS_URL: Env.NATS_URL,
  NATS_USER: Env.NATS_USER,
  NATS_PASSWORD: Env.NATS_PASSWORD,
  NATS_TOKEN: Env.NATS_TOKEN,
  BUS_NAMESPACE: Env.BUS_NAMESPACE,
  BUS_REPLICAS: Env.BUS_REPLICAS,
  INTERNAL_AUTH_SECRET: Env.INTERNAL_AUTH_SECRET,
  /** `/metrics` and `/ready` detail need `Authorization: Bearer <METRICS_TOKEN>` (unset: never served). */
  METRICS_TOKEN: Env.METRICS_TOKEN,
  PUBLIC_URL: Env.PUBLIC_URL,
  /** The public server's time-outs and connection limit per client address (docs/decisions/deployment.md). */
  HTTP_REQUEST_TIMEOUT_MS: Env.HTTP_REQUEST_TIMEOUT_MS,
  HTTP_HEADERS_TIMEOUT_MS: Env.HTTP_HEADERS_TIMEOUT_MS,
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: Env.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
  SESSION_SECRET: Env.SESSION_SECRET,
  SESSION_IDLE_MINUTES: SessionEnv.SESSION_IDLE_MINUTES,
  SESSION_ABSOLUTE_HOURS: SessionEnv.SESSION_ABSOLUTE_HOURS,
  /** Only for the Content-Security-Policy: development avatars come from the local provider. */
  OIDC_ISSUER: Env.OIDC_ISSUER,
  AUTH_URL: Env.AUTH_URL,
  SETTINGS_URL: Env.SETTINGS_URL,
  ADMIN_URL: Env.ADMIN_URL,
  INGEST_URL: Env.INGEST_URL,
  BROKER_CONNECTOR_URL: Env.BROKER_CONNECTOR_URL,
  /**
   * Set when a TLS terminator or load balancer sits in front: a comma-separated list of its addresses/CIDRs.
   * X-Forwarded-For is read from the right, past listed addresses only, so exactly those hops are believed.
   * It decides the client address (rate limits, ingest's allow-list) and whether the request was https
   * (Secure session cookie). Unset: the socket's peer is the client. `true` (believe every hop) is refused:
   * any client could then name its own address. Fastify refuses a bare hop count (it cannot check the peer).
   */
  TRUST_PROXY: Type.Optional(
    Type.String({
      pattern: '^(false|[0-9a-fA-F.:/, ]*[.:][0-9a-fA-F.:/, ]*)$',
      description: 'addresses of the proxies in front of the gateway',
      'x-expected': 'comma-separated proxy addresses/CIDRs (not true: that believes any client)',
    }),
  ),
  /** How often open live sockets are checked against bans, approval and their session (ms). */
  LIVE_RECHECK_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 1_000, description: 'live socket access re-check interval (ms)' }),
  /** How often each live socket is pinged; one that did not answer the previous ping is dropped (ms). */
  LIVE_HEARTBEAT_MS: Type.Integer({ minimum: 50, maximum: 300_000, default: 30_000, description: 'live socket ping interval (ms)' }),
  /** Sign-in requests per minute per client address (every /auth path but /auth/me). */
  AUTH_RATE_LIMIT: Type.Integer({ minimum: 1, maximum: 100_000, default: 30, description: 'sign-in requests (/auth/* but /auth/me) per minute per client' }),
  /** `/auth/me` requests per minute per client address: pages reading who is signed in, not sign-ins. */
  AUTH_ME_RATE_LIMIT: Type.Integer({ minimum: 1, maximum: 100_000, default: 600, description: '/auth/me requests per minute per client' }),
})

export type Config = Static<typeof ConfigSchema>

/** TRUST_PROXY as Fastify's `trustProxy` option. */
export function trustProxyOption(value: string | undefined): false | string[] {
  if (value === undefined || value === '' || value === 'false') return false
  return value.split(',').map((entry) => entry.trim()).filter(Boolean)
}

/** Where the gateway listens: GATEWAY_HOST, else HOST (a public service; the internal ones never read HOST). */
export function listenHost(config: Pick<Config, 'HOST' | 'GATEWAY_HOST'>): string {
  return config.GATEWAY_HOST ?? config.HOST
}
