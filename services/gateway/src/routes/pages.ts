import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import fastifyStatic from '@fastify/static'
import type { SessionSettings } from '@signals/sessions'
import { routeUnder } from '@signals/http-kit'
import { resolveAccess } from '../access/resolve-access.ts'
import { bannedLoginPage, pageRule } from '../access/pages.ts'
import { cacheControlOf } from './cache-policy.ts'

/**
 * The static pages, guarded as the spec's "initial site access" says: signed out to /login.html, not yet
 * approved to /pending-approval.html (and an approved user there goes home). Assets load freely.
 * Served as built (scripts/build-web.ts): precompressed (br, gzip) and cached by name (cache-policy.ts); a
 * guarded page keeps its `no-store`.
 * Must be registered in a scope with the session plugin.
 */
export const pages: FastifyPluginAsyncTypebox<{ root: string; settings: SessionSettings }> = async (scope, options) => {
  scope.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return
    if (routeUnder(request, '/api/')) return
    const path = request.url.split('?')[0] ?? '/'
    const rule = pageRule(path)
    if (rule === 'public' || rule === 'asset') return
    const access = await resolveAccess(request, reply, scope.redis, options.settings)
    reply.header('cache-control', 'no-store')
    if (access.kind === 'anonymous') return reply.redirect('/login.html', 302)
    if (access.kind === 'banned') return reply.redirect(bannedLoginPage(access.reason), 302)
    if (rule === 'approved' && access.kind === 'pending') return reply.redirect('/pending-approval.html', 302)
    if (rule === 'signed-in' && access.kind === 'approved') return reply.redirect('/', 302)
  })
  scope.addHook('onSend', async (request, reply) => {
    if (reply.statusCode !== 200 || reply.hasHeader('cache-control') || routeUnder(request, '/api/')) return
    reply.header('cache-control', cacheControlOf(request.url.split('?')[0] ?? '/'))
  })
  await scope.register(fastifyStatic, { root: options.root, index: ['index.html'], wildcard: true, preCompressed: true, cacheControl: false })
}
