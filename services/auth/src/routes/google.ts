import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import * as oidc from 'openid-client'
import { LOGIN_COOKIE, LOGIN_TTL_SECONDS, startLoginTransaction, takeLoginTransaction } from '../oidc/login-transactions.ts'
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
const Redirect = { 302: Type.Null({ description: 'redirect' }) }

/** `GET /auth/google` and its callback: authorization code flow with PKCE (S256), state and nonce. */
export async function googleRoutes(fastify: FastifyInstance, options: GoogleRoutesOptions) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const redirectUri = new URL('/auth/google/callback', options.publicUrl).href
  const loginCookie = { path: '/auth/google', httpOnly: true, sameSite: 'lax' as const, secure: options.settings.secure }

  app.get(
    '/auth/google',
    {
      schema: {
        querystring: Type.Object({ returnTo: Type.Optional(Type.String({ maxLength: 512 })) }),
        response: Redirect,
      },
    },
    async (request, reply) => {
      let configuration: oidc.Configuration
      try {
        configuration = await options.oidcClient.configuration()
      } catch {
        return reply.redirect(loginErrorUrl('unavailable'), 302)
      }
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
        querystring: Type.Object({
          code: Type.Optional(Type.String({ maxLength: 4096 })),
          state: Type.Optional(Type.String({ maxLength: 1024 })),
          error: Type.Optional(Type.String({ maxLength: 256 })),
        }),
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

      let configuration: oidc.Configuration
      try {
        configuration = await options.oidcClient.configuration()
      } catch {
        return reply.redirect(loginErrorUrl('unavailable'), 302)
      }

      const currentUrl = new URL(redirectUri)
      const queryStart = request.url.indexOf('?')
      currentUrl.search = queryStart === -1 ? '' : request.url.slice(queryStart)
      let claims: Record<string, unknown>
      try {
        const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
          pkceCodeVerifier: transaction.codeVerifier,
          expectedState: transaction.state,
          expectedNonce: transaction.nonce,
          idTokenExpected: true,
        })
        claims = { ...(tokens.claims() ?? {}) }
        if (typeof claims.email !== 'string' && typeof claims.sub === 'string') {
          // Some providers keep profile claims out of the ID token: ask userinfo (same subject enforced).
          const userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub)
          claims = { ...userInfo, ...claims, email: userInfo.email, email_verified: userInfo.email_verified, name: userInfo.name, picture: userInfo.picture }
        }
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
