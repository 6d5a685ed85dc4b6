import * as oidc from 'openid-client'
import type { FastifyBaseLogger } from 'fastify'

export interface OidcClientOptions {
  issuer: string
  clientId: string
  clientSecret: string
  /** Plain-http issuers are allowed only outside production (the local development provider). */
  allowHttp: boolean
  log: FastifyBaseLogger
}

export interface OidcClient {
  /** The discovered configuration; discovery runs on first use and again after a failure. */
  configuration(): Promise<oidc.Configuration>
}

const REQUEST_TIMEOUT_SECONDS = 5

/**
 * Discovers the issuer lazily and retries on the next use after a failure, so a provider that starts after
 * auth (or is briefly unreachable) never crashes the service: sign-in just answers "try again" meanwhile.
 */
export function createOidcClient(options: OidcClientOptions): OidcClient {
  let pending: Promise<oidc.Configuration> | null = null

  async function discover(): Promise<oidc.Configuration> {
    const configuration = await oidc.discovery(
      new URL(options.issuer),
      options.clientId,
      { client_secret: options.clientSecret },
      oidc.ClientSecretBasic(options.clientSecret),
      { execute: options.allowHttp ? [oidc.allowInsecureRequests] : [], timeout: REQUEST_TIMEOUT_SECONDS },
    )
    configuration.timeout = REQUEST_TIMEOUT_SECONDS
    options.log.info({ issuer: options.issuer }, 'OpenID Connect issuer discovered')
    return configuration
  }

  return {
    configuration() {
      pending ??= discover().catch((error: unknown) => {
        pending = null
        options.log.warn({ err: error, issuer: options.issuer }, 'OpenID Connect discovery failed; will retry on next sign-in')
        throw error
      })
      return pending
    },
  }
}
