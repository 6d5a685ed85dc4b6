import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { badRequest, notFound } from '@signals/http-kit'
import { findSubscribableSource, replaceSubscription, setDefaultSubscription } from '../repositories/signal-sources.ts'
import { SourceParams, SourceResponse, SubscriptionsBody } from '../schemas/signal-sources.ts'
import { DEFAULT_SOURCE_ID, defaultSourceView } from '../signal-sources/default-source.ts'
import { sourceViewOf } from '../signal-sources/source-view.ts'
import { isMissingUser } from './options.ts'

const DEFAULT_SOURCE_SIZED_BY_ACCOUNT = "the default source (the spec's /webhook/alert) sizes every entry by your account's risk settings: subscribe to it with sizeRule account"

const tags = ['signal sources']
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 500: ErrorBody }

/**
 * A trader's subscription to one source: their own, an operator source, or the default operator source (the
 * spec's `POST /webhook/alert`, id `DEFAULT_SOURCE_ID`), which every trader receives until they opt out
 * with an empty list (docs/decisions/signal-sources.md).
 */
export const signalSourceSubscriptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.put(
    '/api/signal-sources/:id/subscriptions',
    {
      schema: {
        tags,
        summary: 'Subscribe to your source or an operator source (with a size rule), or unsubscribe (an empty list); the default source (the spec route) included',
        params: SourceParams,
        body: SubscriptionsBody,
        response: { 200: SourceResponse, ...errors },
      },
    },
    async (request) => {
      const userId = request.identity.userId
      const [item] = request.body.subscriptions
      const isDefault = request.params.id === DEFAULT_SOURCE_ID
      const source = isDefault ? undefined : await findSubscribableSource(app.db, userId, request.params.id)
      if (!isDefault && !source) throw notFound('Signal source not found')
      if (source === undefined) {
        // The spec's route keeps its sizing: the account's risk settings (its opt-out is the only choice kept).
        if (item?.sizeRule === 'multiplier') throw badRequest(DEFAULT_SOURCE_SIZED_BY_ACCOUNT)
        await setDefaultSubscription(app.db, userId, item !== undefined).catch((error: unknown) => {
          throw isMissingUser(error) ? notFound('User not found') : error
        })
        request.log.info({ userId, subscribed: item !== undefined }, 'default source subscription changed')
        return { success: true as const, source: defaultSourceView(item !== undefined) }
      }
      // The multiplier is written on each record the source makes for this trader, and sizes it (within the account's limits).
      const rule = item === undefined ? null : { sizeRule: item.sizeRule, multiplier: item.sizeRule === 'multiplier' ? item.multiplier : null }
      await replaceSubscription(app.db, source.id, userId, rule)
      return { success: true as const, source: sourceViewOf(source, rule && { ...rule, multiplier: rule.multiplier === null ? null : String(rule.multiplier) }) }
    },
  )
}
