import type { FastifyHelmetOptions } from '@fastify/helmet'
import type { Config } from './config.ts'

/**
 * Helmet's headers with a strict Content-Security-Policy: the pages load only their own scripts and styles
 * (they carry no inline code), can be framed by nobody, and post forms only to us. Profile pictures come
 * from the identity provider (Google's https hosts; the local development provider outside production).
 */
export function securityHeaders(config: Config): FastifyHelmetOptions {
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
