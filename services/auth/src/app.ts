import { adminEmailSet, listOf } from '@signals/config'
import { dbPlugin } from '@signals/db'
import { createServiceApp, internalIdentityPlugin, openapiPlugin } from '@signals/http-kit'
import { redisPlugin, sessionPlugin, sessionSettings } from '@signals/sessions'
import type { Config } from './config.ts'
import { createOidcClient, type OidcClient } from './oidc/client.ts'
import { googleRoutes } from './routes/google.ts'
import { sessionRoutes } from './routes/session.ts'

export interface AuthAppOptions {
  loggerStream?: NodeJS.WritableStream
  /** Tests may hand in their own OpenID Connect client. */
  oidcClient?: OidcClient
}

/** Builds the auth service. Tests drive it with `app.inject`; `main.ts` listens. */
export async function buildApp(config: Config, options: AuthAppOptions = {}) {
  if (config.NODE_ENV === 'production' && !config.OIDC_ISSUER.startsWith('https://')) {
    throw new Error('OIDC_ISSUER must be an https URL in production')
  }
  // Auth is reached only through the gateway, which says in X-Forwarded-Proto whether the browser used
  // https (the session cookie is Secure then, and @fastify/session saves it only over https). Those headers
  // are believed from the gateway's addresses alone (issue 15).
  const app = await createServiceApp({
    service: 'auth',
    logLevel: config.LOG_LEVEL,
    loggerStream: options.loggerStream,
    trustProxy: listOf(config.AUTH_TRUSTED_PROXY),
    logRedaction: { paths: ['config.SESSION_SECRET', 'config.OIDC_CLIENT_SECRET', 'config.INTERNAL_AUTH_SECRET'] },
  })
  await app.register(dbPlugin, { connectionString: config.DATABASE_URL })
  await app.register(redisPlugin, { url: config.REDIS_URL })
  await app.register(internalIdentityPlugin, { secret: config.INTERNAL_AUTH_SECRET, audience: 'auth' })
  const settings = sessionSettings(config)
  await app.register(sessionPlugin, { settings })

  const oidcClient =
    options.oidcClient ??
    createOidcClient({
      issuer: config.OIDC_ISSUER,
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      allowHttp: config.NODE_ENV !== 'production',
      log: app.log,
    })
  const adminEmails = adminEmailSet(config.ADMIN_EMAIL)
  await app.register(openapiPlugin, {
    title: 'Signals sign-in',
    description: 'Sign-in with the OpenID Connect provider, the session, sign-out. Public: these set or end the session.',
    prefixes: ['/auth/'],
  })
  await app.register(googleRoutes, { db: app.db, redis: app.redis, settings, adminEmails, oidcClient, publicUrl: config.PUBLIC_URL })
  await app.register(sessionRoutes, { settings })
  // Warm discovery up without waiting for it: a provider that starts later is found on first sign-in.
  app.addHook('onReady', async () => {
    oidcClient.configuration().catch(() => undefined)
  })
  return app
}
