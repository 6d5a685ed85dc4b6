import { fileURLToPath } from 'node:url'
import websocket from '@fastify/websocket'
import { busPlugin, natsCredentials, createServiceApp, serverTimeouts } from '@signals/http-kit'
import { redisPlugin, sessionPlugin, sessionSettings } from '@signals/sessions'
import { trustProxyOption, type Config } from './config.ts'
import { authProxy } from './routes/auth-proxy.ts'
import { webhookProxy } from './routes/webhook-proxy.ts'
import { apiProxy } from './routes/api.ts'
import { pages } from './routes/pages.ts'
import { securityHeadersPlugin } from './security-headers.ts'
import { docsRoutes } from './docs/docs-routes.ts'
import { livePlugin } from './live/live-plugin.ts'
import { websocketOptions } from './live/websocket-options.ts'
import { vendorAssets } from './routes/vendor-assets.ts'
import { builtStylesheet } from './routes/built-stylesheet.ts'

export interface GatewayAppOptions {
  loggerStream?: NodeJS.WritableStream
  /** Folder of the static pages (default: the gateway's `public`). */
  publicDir?: string
  /** Rate-limit key prefix; tests give each app its own so they do not share counters. */
  rateLimitNamespace?: string
}

const PUBLIC_DIR = fileURLToPath(new URL('../public', import.meta.url))

/** Builds the gateway service. Tests drive it with `app.inject`; `main.ts` listens. */
export async function buildApp(config: Config, options: GatewayAppOptions = {}) {
  const app = await createServiceApp({
    service: 'gateway',
    logLevel: config.LOG_LEVEL,
    loggerStream: options.loggerStream,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    internalSurfaces: { token: config.METRICS_TOKEN },
    timeouts: serverTimeouts(config),
    maxConnectionsPerAddress: config.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    logRedaction: { paths: ['req.headers["x-webhook-secret"]', 'config.SESSION_SECRET', 'config.INTERNAL_AUTH_SECRET'], secretPathPrefixes: ['/webhook/alert/', '/webhook/s/'] },
  })
  const settings = sessionSettings(config)
  const publicDir = options.publicDir ?? PUBLIC_DIR
  await app.register(redisPlugin, { url: config.REDIS_URL })
  await app.register(busPlugin, { url: config.NATS_URL, credentials: natsCredentials(config), namespace: config.BUS_NAMESPACE, replicas: config.BUS_REPLICAS })
  await securityHeadersPlugin(app, config)
  // Upgrades go through Fastify's router like any request (hooks, session, the route's checks). Registered
  // before every route, so an upgrade to any other path is refused or closed, never left hanging.
  await app.register(websocket, websocketOptions)

  await app.register(authProxy, {
    authUrl: config.AUTH_URL,
    publicUrl: config.PUBLIC_URL,
    limit: config.AUTH_RATE_LIMIT,
    meLimit: config.AUTH_ME_RATE_LIMIT,
    rateLimitNamespace: options.rateLimitNamespace ?? 'auth-rate-limit:',
    stylesheet: await builtStylesheet(publicDir),
  })
  await app.register(webhookProxy, { ingestUrl: config.INGEST_URL, internalAuthSecret: config.INTERNAL_AUTH_SECRET })

  // Session-aware routes live in one scope: the session hooks never run for /auth (auth owns its cookie
  // there) or /webhook (no session by design).
  await app.register(async (scope) => {
    await scope.register(sessionPlugin, { settings })
    await scope.register(livePlugin, { settings, recheckMs: config.LIVE_RECHECK_MS, heartbeatMs: config.LIVE_HEARTBEAT_MS })
    await scope.register(apiProxy, {
      settings,
      internalAuthSecret: config.INTERNAL_AUTH_SECRET,
      upstreams: { settings: config.SETTINGS_URL, admin: config.ADMIN_URL, brokerConnector: config.BROKER_CONNECTOR_URL },
    })
    await scope.register(pages, { root: publicDir, settings })
  })
  await app.register(vendorAssets)
  await app.register(docsRoutes, {
    publicUrl: config.PUBLIC_URL,
    sources: [
      { service: 'settings', url: config.SETTINGS_URL },
      { service: 'broker-connector', url: config.BROKER_CONNECTOR_URL },
      { service: 'admin', url: config.ADMIN_URL },
      { service: 'ingest', url: config.INGEST_URL },
      { service: 'auth', url: config.AUTH_URL },
    ],
  })
  return app
}
