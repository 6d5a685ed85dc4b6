import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { newSignalSourceToken, notFound } from '@signals/http-kit'
import { insertSource, isSubscribedToDefault, listVisibleSources, replaceSubscription, revokeSource, rotateSource } from '../repositories/signal-sources.ts'
import { SourceBody, SourceParams, SourceResponse, SourcesResponse, SourceWithUrlResponse } from '../schemas/signal-sources.ts'
import { defaultSourceView } from '../signal-sources/default-source.ts'
import { sourceUrlOf, sourceViewOf } from '../signal-sources/source-view.ts'
import { isMissingUser } from './options.ts'
import { signalSourceSubscriptionRoutes } from './signal-source-subscriptions.ts'

const tags = ['signal sources']
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 500: ErrorBody }
const NOT_FOUND = 'Signal source not found'

/**
 * A trader's signal sources (issue 22): named webhook URLs `/webhook/s/<token>` delivering to their owner
 * only, and their subscriptions to their own and the operator's sources. The token is shown once, when
 * made or rotated; only its hash is kept. Every change reaches ingest through the key relay. The default
 * operator source (the spec's route) leads the list; it is never rotated or deleted here (404, as any
 * operator source).
 */
export const signalSourceRoutes: FastifyPluginAsyncTypebox<{ publicUrl: string }> = async (app, options) => {
  const kick = () => void app.signalSourceKeys?.runOnce().catch((error: unknown) => app.log.warn({ err: error }, 'signal source keys not written yet; the relay will retry'))

  await app.register(signalSourceSubscriptionRoutes)

  app.get(
    '/api/signal-sources',
    { schema: { tags, summary: 'The default source (the spec route), your sources and the operator sources, with your subscriptions', response: { 200: SourcesResponse, ...errors } } },
    async (request) => {
      const [sources, defaultSubscribed] = await Promise.all([listVisibleSources(app.db, request.identity.userId), isSubscribedToDefault(app.db, request.identity.userId)])
      return { success: true as const, sources: [defaultSourceView(defaultSubscribed), ...sources.map(({ source, subscription }) => sourceViewOf(source, subscription))] }
    },
  )

  app.post(
    '/api/signal-sources',
    { schema: { tags, summary: 'Make a source; its URL (with the token) is shown this once. You are subscribed to it with your own sizing', body: SourceBody, response: { 200: SourceWithUrlResponse, ...errors } } },
    async (request) => {
      const userId = request.identity.userId
      const { token, tokenHash } = newSignalSourceToken()
      const source = await app.db.transaction().execute(async (trx) => {
        const row = await insertSource(trx, { ownerUserId: userId, name: request.body.name.trim(), tokenHash })
        await replaceSubscription(trx, row.id, userId, { sizeRule: 'account', multiplier: null })
        return row
      }).catch((error: unknown) => {
        throw isMissingUser(error) ? notFound('User not found') : error
      })
      kick()
      request.log.info({ sourceId: source.id }, 'signal source made')
      return { success: true as const, source: sourceViewOf(source, { sizeRule: 'account', multiplier: null }), url: sourceUrlOf(options.publicUrl, token), token }
    },
  )

  app.post(
    '/api/signal-sources/:id/rotate',
    { schema: { tags, summary: 'A new URL token, shown this once; the old URL stops working', params: SourceParams, response: { 200: SourceWithUrlResponse, ...errors } } },
    async (request) => {
      const { token, tokenHash } = newSignalSourceToken()
      const source = await rotateSource(app.db, request.identity.userId, request.params.id, tokenHash)
      if (!source) throw notFound(NOT_FOUND)
      kick()
      const visible = (await listVisibleSources(app.db, request.identity.userId)).find((each) => each.source.id === source.id)
      return { success: true as const, source: sourceViewOf(source, visible?.subscription ?? null), url: sourceUrlOf(options.publicUrl, token), token }
    },
  )

  app.delete('/api/signal-sources/:id', { schema: { tags, summary: 'Delete (revoke) a source: its URL stops working', params: SourceParams, response: { 200: SourceResponse, ...errors } } }, async (request) => {
    const source = await revokeSource(app.db, request.identity.userId, request.params.id)
    if (!source) throw notFound(NOT_FOUND)
    kick()
    return { success: true as const, source: sourceViewOf(source, null) }
  })
}
