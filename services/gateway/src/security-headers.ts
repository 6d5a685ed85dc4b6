import Fastify, { type FastifyInstance } from 'fastify'
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet'
import type { Config } from './config.ts'

/**
 * Helmet's headers with a strict Content-Security-Policy: the pages load only their own scripts and styles
 * (they carry no inline code), can be framed by nobody, and post forms only to us. Profile pictures come
 * from the identity provider (Google's https hosts; the local development provider outside production).
 */
function securityHeaders(config: Config): FastifyHelmetOptions {
  const https = config.PUBLIC_URL.startsWith('https://')
  const imageSources = ["'self'", 'data:', 'https:']
  if (config.NODE_ENV !== 'production') imageSources.push(new URL(config.OIDC_ISSUER).origin)
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: imageSources,
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only means something over https; on a plain-http development URL it would only confuse.
    strictTransportSecurity: https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  }
}

/** Response headers that are not about security: everything else helmet set is kept. */
const NOT_SECURITY = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive'])

/**
 * Helmet's headers, worked out once at start-up by @fastify/helmet itself on a probe app, then set on every
 * response by one cheap hook. Helmet rebuilds them (and re-parses the CSP) on every request, which cost
 * about a fifth of the gateway's CPU per proxied call; the headers never vary per request here.
 */
export async function securityHeadersPlugin(app: FastifyInstance, config: Config): Promise<void> {
  const probe = Fastify()
  await probe.register(helmet, securityHeaders(config))
  probe.get('/', async () => '')
  const response = await probe.inject({ method: 'GET', url: '/' })
  await probe.close()
  const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !NOT_SECURITY.has(name))) as Record<string, string>
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers)
    done()
  })
}
