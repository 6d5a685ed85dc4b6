import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { newSignalSourceToken, notFound } from '@signals/http-kit'
import { recordAudit } from '../repositories/audit.ts'
import { insertOperatorSource, listOperatorSources, revokeOperatorSource, rotateOperatorSource } from '../repositories/signal-sources.ts'
import { OperatorSourceBody, OperatorSourceParams, OperatorSourceResponse, OperatorSourcesResponse, OperatorSourceWithUrlResponse, operatorSourceView } from '../schemas/signal-sources.ts'

const tags = ['admin']
const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody }
const NOT_FOUND = 'Operator signal source not found'
const urlOf = (publicUrl: string, token: string) => `${publicUrl.replace(/\/+$/, '')}/webhook/s/${token}`

/**
 * Operator signal sources (issue 22): webhook URLs an administrator makes, delivering to every trader
 * subscribed to them. The token is shown once; changes reach ingest through the settings service's relay.
 */
export const operatorSourceRoutes: FastifyPluginAsyncTypebox<{ publicUrl: string }> = async (app, options) => {
  app.get('/api/admin/signal-sources', { schema: { tags, summary: 'Operator signal sources', response: { 200: OperatorSourcesResponse, ...errors } } }, async () => {
    const sources = await listOperatorSources(app.db)
    return { success: true as const, sources: sources.map((source) => operatorSourceView(source, source.subscribers)) }
  })

  app.post(
    '/api/admin/signal-sources',
    { schema: { tags, summary: 'Make an operator source; its URL (with the token) is shown this once', body: OperatorSourceBody, response: { 200: OperatorSourceWithUrlResponse, ...errors } } },
    async (request) => {
      const { token, tokenHash } = newSignalSourceToken()
      const source = await app.db.transaction().execute(async (trx) => {
        const row = await insertOperatorSource(trx, { name: request.body.name.trim(), tokenHash })
        await recordAudit(trx, { actorUserId: request.identity.userId, action: 'signal_source_create', target: row.id })
        return row
      })
      return { success: true as const, source: operatorSourceView(source, 0), url: urlOf(options.publicUrl, token), token }
    },
  )

  app.post(
    '/api/admin/signal-sources/:id/rotate',
    { schema: { tags, summary: 'A new URL token, shown this once; the old URL stops working', params: OperatorSourceParams, response: { 200: OperatorSourceWithUrlResponse, ...errors } } },
    async (request) => {
      const { token, tokenHash } = newSignalSourceToken()
      const source = await app.db.transaction().execute(async (trx) => {
        const row = await rotateOperatorSource(trx, request.params.id, tokenHash)
        if (row) await recordAudit(trx, { actorUserId: request.identity.userId, action: 'signal_source_rotate', target: row.id })
        return row
      })
      if (!source) throw notFound(NOT_FOUND)
      const subscribers = (await listOperatorSources(app.db)).find((each) => each.id === source.id)?.subscribers ?? 0
      return { success: true as const, source: operatorSourceView(source, subscribers), url: urlOf(options.publicUrl, token), token }
    },
  )

  app.delete(
    '/api/admin/signal-sources/:id',
    { schema: { tags, summary: 'Delete (revoke) an operator source: its URL stops working', params: OperatorSourceParams, response: { 200: OperatorSourceResponse, ...errors } } },
    async (request) => {
      const source = await app.db.transaction().execute(async (trx) => {
        const row = await revokeOperatorSource(trx, request.params.id)
        if (row) await recordAudit(trx, { actorUserId: request.identity.userId, action: 'signal_source_delete', target: row.id })
        return row
      })
      if (!source) throw notFound(NOT_FOUND)
      return { success: true as const, source: operatorSourceView(source, 0) }
    },
  )
}
