import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto'
import { interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider'
import type { AccountStore } from './accounts.ts'
import type { MemoryStore } from './memory-adapter.ts'
import { CONTENT_SECURITY_POLICY, errorPage, logoutPage, signedOutPage } from './pages.ts'

export interface DevClient {
  client_id: string
  client_secret: string
  redirect_uris: string[]
}

/** The scopes and the claims each releases: what Google's sign-in gives an application. */
const CLAIMS_BY_SCOPE = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name', 'picture'],
} as const

/** Koa's context as the page hooks below use it. */
interface PageContext {
  type: string
  body: string
  set(header: string, value: string): void
}

/**
 * A development provider asks who you are at every sign-in, so switching accounts needs no provider
 * sign-out: without this, its own session would silently sign the previous e-mail in again.
 */
function alwaysAskPolicy() {
  const policy = interactionPolicy.base()
  const login = policy.get('login')
  if (login === undefined) throw new Error('oidc-provider has no login prompt to extend')
  login.checks.add(
    new interactionPolicy.Check('dev_sign_in', 'the development provider asks for an e-mail at every sign-in', (ctx) =>
      ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
    ),
  )
  return policy
}

function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' }
}

function html(ctx: PageContext, body: string): void {
  ctx.type = 'html'
  ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY)
  ctx.body = body
}

export function providerConfiguration(clients: readonly DevClient[], accounts: AccountStore, store: MemoryStore): Configuration {
  return {
    adapter: (model: string) => store.adapterFor(model),
    clients: clients.map((client) => ({
      client_id: client.client_id,
      client_secret: client.client_secret,
      redirect_uris: client.redirect_uris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      // Either client_secret_basic or client_secret_post is accepted for a secret client, as at Google.
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    findAccount: async (_ctx: KoaContextWithOIDC, sub: string, token?: { grantId?: string }) => {
      const claims = accounts.claimsOf(sub, token?.grantId)
      return claims === undefined ? undefined : { accountId: sub, claims: async () => claims }
    },
    claims: CLAIMS_BY_SCOPE,
    scopes: Object.keys(CLAIMS_BY_SCOPE),
    // Claims in the ID token as well as at userinfo, as Google does: a client may read either.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: PageContext, form: string) => html(ctx, logoutPage(form)),
        postLogoutSuccessSource: async (ctx: PageContext) => html(ctx, signedOutPage()),
      },
    },
    interactions: {
      url: async (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
      policy: alwaysAskPolicy(),
    },
    renderError: async (ctx: PageContext, out: Record<string, string>) => html(ctx, errorPage('Sign-in error', out)),
    // Seconds. Google's tokens last an hour; a sign-in form left open an hour expires with them.
    ttl: { AuthorizationCode: 60, AccessToken: 3600, IdToken: 3600, Interaction: 3600, Session: 86_400, Grant: 86_400 },
    cookies: {
      keys: [randomBytes(32).toString('base64url')],
      // Cookies ignore ports: on localhost the gateway and the provider share a cookie jar, so the
      // provider's names say whose they are.
      names: { session: 'dev_oidc_session', interaction: 'dev_oidc_interaction', resume: 'dev_oidc_resume' },
    },
    jwks: { keys: [signingKey()] },
  }
}
