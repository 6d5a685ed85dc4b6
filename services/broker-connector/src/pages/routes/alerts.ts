import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { listUserAlerts } from '../../repositories/alerts.ts'
import { rawDataFor } from './alert-raw-data.ts'
import { AlertsPage, AlertsQuery } from '../schemas/alerts.ts'
import { isoOrNull, nextCursorOf } from '@signals/http-kit'
import { ownAccountFilter } from './account-filter.ts'

const idText = (id: number | null) => (id === null ? null : String(id))

/**
 * `GET /api/alerts`: the caller's own alert records, newest first, optionally of one of their accounts
 * (`?accountId=`). Test alerts belong to no trader. A fan-out
 * recipient's rawData is the normalized alert; the sender's body stays with the sender (alert-raw-data.ts).
 */
export const alertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/alerts',
    {
      schema: {
        summary: "The signed-in user's alert records, newest first",
        tags: ['alerts'],
        querystring: AlertsQuery,
        response: {
          200: AlertsPage,
          400: ErrorBody,
          401: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request) => {
      const { limit, before } = request.query
      const userId = request.identity.userId
      const accountId = await ownAccountFilter(app.db, userId, request.query.accountId)
      const rows = await listUserAlerts(app.db, {
        userId,
        limit,
        beforeId: before === undefined ? undefined : Number(before),
        accountId,
      })
      return {
        success: true as const,
        alerts: rows.map((row) => ({
          id: String(row.id),
          alertId: row.alert_id,
          accountId: row.account_id,
          symbol: row.symbol,
          root: row.root,
          action: row.action,
          entryPrice: row.entry_price,
          sl: row.sl,
          tp: row.tp,
          indicator: row.indicator,
          leverage: row.leverage,
          rawData: rawDataFor(row, request.identity),
          status: row.status,
          reason: row.reason,
          refusalCode: row.refusal_code,
          alertQuantity: row.alert_quantity,
          orderQuantity: row.order_quantity,
          orderTag: row.order_tag,
          contract: row.contract,
          entryOrderId: idText(row.entry_order_id),
          stopOrderId: idText(row.stop_order_id),
          targetOrderId: idText(row.target_order_id),
          placedAt: isoOrNull(row.placed_at),
          receivedAt: row.received_at.toISOString(),
          createdAt: row.created_at.toISOString(),
        })),
        nextCursor: nextCursorOf(rows, limit),
      }
    },
  )
}
