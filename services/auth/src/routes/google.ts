import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import * as oidc from 'openid-client'
import { LOGIN_COOKIE, LOGIN_TTL_SECONDS, startLoginTransaction, takeLoginTransaction, type LoginTransaction } from '../oidc/login-transactions.ts'
import { GoogleCallbackQuery, GoogleStartQuery, Redirect } from '../schemas/google.ts'
import type { OidcClient } from '../oidc/client.ts'
import { profileFrom } from '../oidc/profile.ts'
import { safeReturnTo } from '../return-to.ts'
import { loginErrorUrl } from '../login-errors.ts'
import { completeSignIn, type SignInContext } from '../sign-in.ts'

export interface GoogleRoutesOptions extends SignInContext {
  oidcClient: OidcClient
  publicUrl: string
}

const SCOPE = 'openid email profile'

/** `GET /auth/google` and its callback: authorization code flow with PKCE (S256), state and nonce. */
export const googleRoutes: FastifyPluginAsyncTypebox<GoogleRoutesOptions> = async (app, options) => {
  const redirectUri = new URL('/auth/google/callback', options.publicUrl).href
  const loginCookie = { path: '/auth/google', httpOnly: true, sameSite: 'lax' as const, secure: options.settings.secure }

  app.get(
    '/auth/google',
    {
      schema: {
        querystring: GoogleStartQuery,
        response: Redirect,
      },
    },
    async (request, reply) => {
      const configuration = await options.oidcClient.configuration().catch(() => null)
      if (!configuration) return reply.redirect(loginErrorUrl('unavailable'), 302)
      const codeVerifier = oidc.randomPKCECodeVerifier()
      const state = oidc.randomState()
      const nonce = oidc.randomNonce()
      const transactionId = await startLoginTransaction(app.redis, {
        state,
        nonce,
        codeVerifier,
        returnTo: safeReturnTo(request.query.returnTo),
      })
      reply.setCookie(LOGIN_COOKIE, transactionId, { ...loginCookie, maxAge: LOGIN_TTL_SECONDS })
      const url = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      })
      return reply.redirect(url.href, 302)
    },
  )

  app.get(
    '/auth/google/callback',
    {
      schema: {
        querystring: GoogleCallbackQuery,
      },
    },
    async (request, reply) => {
      const transaction = await takeLoginTransaction(app.redis, request.cookies[LOGIN_COOKIE])
      reply.clearCookie(LOGIN_COOKIE, loginCookie)
      const { error } = request.query
      if (error !== undefined) {
        request.log.info({ providerError: error }, 'sign-in ended by the provider')
        return reply.redirect(loginErrorUrl(error === 'access_denied' ? 'denied' : 'provider'), 302)
      }
      if (!transaction) return reply.redirect(loginErrorUrl('expired'), 302)

      const configuration = await options.oidcClient.configuration().catch(() => null)
      if (!configuration) return reply.redirect(loginErrorUrl('unavailable'), 302)

      const currentUrl = new URL(redirectUri)
      const queryStart = request.url.indexOf('?')
      currentUrl.search = queryStart === -1 ? '' : request.url.slice(queryStart)
      let claims: Record<string, unknown>
      try {
        claims = await exchangeCode(configuration, currentUrl, transaction)
      } catch (failure) {
        request.log.warn({ err: failure }, 'sign-in failed at the token exchange')
        return reply.redirect(loginErrorUrl('provider'), 302)
      }

      const read = profileFrom(claims)
      if (!read.ok) {
        request.log.warn({ reason: read.reason }, 'sign-in refused: unusable profile')
        return reply.redirect(loginErrorUrl('profile'), 302)
      }
      if (!read.profile.emailVerified) {
        request.log.info({ userId: read.profile.sub }, 'sign-in refused: e-mail not verified')
        return reply.redirect(loginErrorUrl('unverified'), 302)
      }
      return completeSignIn(options, request, reply, read.profile, transaction.returnTo)
    },
  )
}

/** The code exchanged for the signed-in user's claims (PKCE, state and nonce checked). */
async function exchangeCode(configuration: oidc.Configuration, currentUrl: URL, transaction: LoginTransaction): Promise<Record<string, unknown>> {
  const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
    pkceCodeVerifier: transaction.codeVerifier,
    expectedState: transaction.state,
    expectedNonce: transaction.nonce,
    idTokenExpected: true,
  })
  const claims = { ...(tokens.claims() ?? {}) }
  if (typeof claims.email === 'string' || typeof claims.sub !== 'string') return claims
  // Some providers keep profile claims out of the ID token: ask userinfo (same subject enforced).
  const userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub)
  return { ...userInfo, ...claims, email: userInfo.email, email_verified: userInfo.email_verified, name: userInfo.name, picture: userInfo.picture }
}
