import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'
import { AccountStore } from './accounts.ts'
import { providerConfiguration, type DevClient } from './configuration.ts'
import { handleInteraction, INTERACTION_ROUTE, sendHtml } from './interactions.ts'
import { MemoryStore } from './memory-adapter.ts'
import { avatarSvg, errorPage } from './pages.ts'

export type { DevClient } from './configuration.ts'
export { subjectFor } from './accounts.ts'

export interface DevOidcProviderOptions {
  /** 0 or absent: a free port. */
  port?: number
  /** Interface to listen on; 127.0.0.1 unless told. */
  host?: string
  /** Absent: http://127.0.0.1:<port> (or the host given). */
  issuer?: string
  clients: DevClient[]
}

export interface DevOidcProvider {
  issuer: string
  port: number
  close(): Promise<void>
}

export class ProductionRefusedError extends Error {
  constructor() {
    super(
      'The development OpenID Connect provider never runs with NODE_ENV=production: ' +
        'it signs anyone in with any e-mail. Point OIDC_ISSUER at a real provider (https://accounts.google.com).',
    )
    this.name = 'ProductionRefusedError'
  }
}

const AVATAR_ROUTE = /^\/avatar\/([0-9a-f]{32})\.svg$/

/**
 * Starts a real OpenID Connect provider (oidc-provider) for development and tests: authorization code flow
 * with PKCE (S256) required, discovery, scopes openid email profile, and a sign-in page where any e-mail
 * signs in. Accounts and tokens live in memory, and nothing of it starts in production.
 */
export async function startDevOidcProvider(options: DevOidcProviderOptions): Promise<DevOidcProvider> {
  if (process.env.NODE_ENV === 'production') throw new ProductionRefusedError()
  if (options.clients.length === 0) throw new Error('startDevOidcProvider needs at least one client')

  if (options.issuer !== undefined) checkIssuer(options.issuer)
  const host = options.host ?? '127.0.0.1'
  let route: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(503).end()
  }
  const server = createServer((req, res) => route(req, res))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const issuer = (options.issuer ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '')

  const store = new MemoryStore()
  const accounts = new AccountStore((sub) => `${issuer}/avatar/${sub}.svg`)
  const provider = new Provider(issuer, providerConfiguration(options.clients, accounts, store))
  const oidc = provider.callback()

  route = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://provider.invalid').pathname
    const interaction = INTERACTION_ROUTE.exec(path)
    if (interaction !== null) {
      handleInteraction(provider, accounts, req, res, interaction[1] ?? '', interaction[2]).catch((error: unknown) =>
        failed(res, error),
      )
      return
    }
    if (path === '/favicon.ico') {
      res.writeHead(204, { 'cache-control': 'public, max-age=86400' }).end()
      return
    }
    const avatar = AVATAR_ROUTE.exec(path)
    if (avatar !== null && (req.method === 'GET' || req.method === 'HEAD')) {
      const profile = accounts.profileOf(avatar[1] ?? '')
      if (profile === undefined) return sendHtml(res, 404, errorPage('Not found', { error: 'No such account.' }))
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=3600' })
      res.end(avatarSvg(avatar[1] ?? '', (profile.name.trim()[0] ?? profile.email[0] ?? '?').toUpperCase()))
      return
    }
    oidc(req, res)
  }

  return {
    issuer,
    port,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      store.close()
    },
  }
}

/** The provider is served at the root of its origin, so its issuer is an origin. */
function checkIssuer(issuer: string): void {
  let url: URL
  try {
    url = new URL(issuer)
  } catch {
    throw new Error(`The development provider's issuer ${JSON.stringify(issuer)} is not a URL`)
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new Error(`The development provider's issuer must be an http(s) origin without a path, not ${JSON.stringify(issuer)}`)
  }
}

function failed(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy(error instanceof Error ? error : undefined)
    return
  }
  const message = error instanceof Error ? error.message : String(error)
  sendHtml(res, 500, errorPage('Sign-in error', { error: message }))
}
