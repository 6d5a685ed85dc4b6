import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { isoOrNull } from '@signals/http-kit'
import { listDiscrepancies } from '../../repositories/position-discrepancies.ts'
import { DiscrepanciesList, DiscrepanciesQuery } from '../schemas/trades.ts'

/**
 * `GET /api/trades/discrepancies`: what the reconciliation with the broker found on the caller's account
 * and did about it, newest first (docs/decisions/broker-connector.md, "Reconciliation with the broker").
 */
export const discrepancyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/trades/discrepancies',
    {
      schema: {
        summary: "Differences found between the broker's positions and working orders and the user's trades, newest first",
        tags: ['trades'],
        querystring: DiscrepanciesQuery,
        response: { 200: DiscrepanciesList, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => {
      const rows = await listDiscrepancies(app.db, request.identity.userId, request.query.limit)
      return {
        success: true as const,
        discrepancies: rows.map((row) => ({
          id: String(row.id),
          contract: row.contract,
          accountId: String(row.broker_account_id),
          kind: row.kind,
          brokerQty: row.broker_qty,
          ourQty: row.our_qty,
          orderId: row.order_id === null ? null : String(row.order_id),
          action: row.action,
          reason: row.reason,
          foundAt: row.found_at.toISOString(),
          lastSeenAt: row.last_seen_at.toISOString(),
          resolvedAt: isoOrNull(row.resolved_at),
        })),
      }
    },
  )
}
