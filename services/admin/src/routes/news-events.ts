import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { notFound } from '@signals/http-kit'
import { recordAudit } from '../repositories/audit.ts'
import { deleteNewsEvent, insertNewsEvent, listNewsEvents } from '../repositories/news-events.ts'
import { DeletedNewsEvent, NewsEventBody, NewsEventParams, NewsEventResult, NewsEventsPage, NewsEventsQuery, newsEventView } from '../schemas/news-events.ts'

const DAY_MS = 86_400_000

/**
 * The news calendar (issue 24 item 8): entries of traders whose risk-engine configuration asks for news
 * blackouts are refused from `minutesBefore` before an event to `minutesAfter` after it (the connector
 * reads the table at each entry; docs/decisions/risk-engine.md, "Session rules").
 */
export const newsEventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/admin/news-events',
    {
      schema: {
        tags: ['admin'],
        summary: 'News events from a time on (default a day ago), soonest first',
        querystring: NewsEventsQuery,
        response: { 200: NewsEventsPage, 400: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const from = request.query.from === undefined ? new Date(Date.now() - DAY_MS) : new Date(request.query.from)
      const events = await listNewsEvents(app.db, { from, limit: request.query.limit })
      return { success: true as const, events: events.map(newsEventView) }
    },
  )

  app.post(
    '/api/admin/news-events',
    {
      schema: {
        tags: ['admin'],
        summary: 'Add a news event: entries are refused from minutesBefore before it to minutesAfter after it',
        body: NewsEventBody,
        response: { 201: NewsEventResult, 400: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      const { name, at, minutesBefore, minutesAfter } = request.body
      const event = await app.db.transaction().execute(async (trx) => {
        const added = await insertNewsEvent(trx, { name: name.trim(), at, minutesBefore, minutesAfter, createdBy: request.identity.userId })
        await recordAudit(trx, { actorUserId: request.identity.userId, action: 'news_event_add', target: String(added.id), reason: `${added.name} at ${added.at.toISOString()}` })
        return added
      })
      return reply.code(201).send({ success: true as const, event: newsEventView(event) })
    },
  )

  app.delete(
    '/api/admin/news-events/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Remove a news event (its blackout ends at once)',
        params: NewsEventParams,
        response: { 200: DeletedNewsEvent, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const removed = await app.db.transaction().execute(async (trx) => {
        const event = await deleteNewsEvent(trx, request.params.id)
        if (event) await recordAudit(trx, { actorUserId: request.identity.userId, action: 'news_event_delete', target: String(event.id), reason: `${event.name} at ${event.at.toISOString()}` })
        return event
      })
      if (!removed) throw notFound('News event not found')
      return { success: true as const, id: request.params.id }
    },
  )
}
