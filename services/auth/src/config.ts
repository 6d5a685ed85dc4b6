import { Env, Type, type Static } from '@signals/config'

/** One IPv4 or IPv6 address, optionally a CIDR prefix, and a comma-separated list of them. */
const ADDRESS = '(\\d{1,3}(\\.\\d{1,3}){3}|[0-9a-fA-F]*:[0-9a-fA-F:.]*)(/\\d{1,3})?'
const ADDRESS_LIST = `^\\s*${ADDRESS}(\\s*,\\s*${ADDRESS})*\\s*$`
import { SessionEnv } from '@signals/sessions'

/** Everything the auth service reads from its environment. */
export const ConfigSchema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  LOG_LEVEL: Env.LOG_LEVEL,
  /** Its own listen address only: HOST=0.0.0.0 meant for the gateway must not expose it (issue 15). */
  AUTH_HOST: Env.AUTH_HOST,
  AUTH_PORT: Env.AUTH_PORT,
  DATABASE_URL: Env.DATABASE_URL,
  REDIS_URL: Env.REDIS_URL,
  INTERNAL_AUTH_SECRET: Env.INTERNAL_AUTH_SECRET,
  /** The callback is PUBLIC_URL + /auth/google/callback; the cookie is Secure when it is https. */
  PUBLIC_URL: Env.PUBLIC_URL,
  /**
   * The gateway's addresses/CIDRs: only a request from one of them may say, in X-Forwarded-For and
   * X-Forwarded-Proto, who the browser is and whether it used https. Default: the gateway on this host.
   */
  AUTH_TRUSTED_PROXY: Type.String({
    default: '127.0.0.1,::1',
    pattern: ADDRESS_LIST,
    description: 'addresses/CIDRs of the gateway, whose forwarding headers auth believes',
    'x-expected': 'comma-separated IP addresses or CIDRs',
  }),
  OIDC_ISSUER: Env.OIDC_ISSUER,
  OIDC_CLIENT_ID: Env.OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET: Env.OIDC_CLIENT_SECRET,
  ADMIN_EMAIL: Env.ADMIN_EMAIL,
  SESSION_SECRET: Env.SESSION_SECRET,
  SESSION_IDLE_MINUTES: SessionEnv.SESSION_IDLE_MINUTES,
  SESSION_ABSOLUTE_HOURS: SessionEnv.SESSION_ABSOLUTE_HOURS,
})

export type Config = Static<typeof ConfigSchema>
