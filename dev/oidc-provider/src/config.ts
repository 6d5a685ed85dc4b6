import { Env, Type, loadConfig, type Static } from '@signals/config'
import type { DevOidcProviderOptions } from './index.ts'

/** What `pnpm start` runs the development provider with. */
const ConfigSchema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  HOST: Env.HOST,
  /** The provider's own port (development only, so not in DESIGN.md's table). */
  OIDC_PROVIDER_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 3010, description: 'development OpenID Connect provider' }),
  OIDC_ISSUER: Env.OIDC_ISSUER,
  OIDC_CLIENT_ID: Env.OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET: Env.OIDC_CLIENT_SECRET,
  PUBLIC_URL: Env.PUBLIC_URL,
})

export type Config = Static<typeof ConfigSchema>

/** The one client is the platform itself: the auth service, called back through the gateway. */
export function providerOptions(config: Config): DevOidcProviderOptions {
  return {
    port: config.OIDC_PROVIDER_PORT,
    host: config.HOST,
    issuer: config.OIDC_ISSUER,
    clients: [
      {
        client_id: config.OIDC_CLIENT_ID,
        client_secret: config.OIDC_CLIENT_SECRET,
        redirect_uris: [new URL('/auth/google/callback', config.PUBLIC_URL).href],
      },
    ],
  }
}

export function loadProviderConfig(env: Record<string, string | undefined> = process.env): Config {
  return loadConfig(ConfigSchema, env)
}
