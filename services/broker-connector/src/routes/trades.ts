import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { listUserTrades } from '../repositories/trades.ts'
import { listDiscrepancies } from '../repositories/position-discrepancies.ts'
import { DiscrepanciesList, DiscrepanciesQuery, TradesPage, TradesQuery } from '../schemas/trades.ts'
import { isoOrNull, nextCursorOf } from '@signals/http-kit'

const idText = (id: number | null) => (id === null ? null : String(id))

/** `GET /api/trades`: the caller's own trades, newest first, optionally of one status; `GET /api/trades/discrepancies`: the reconciliation's findings. */
export const tradeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/trades',
    {
      schema: {
        summary: "The signed-in user's trades, newest first",
        tags: ['trades'],
        querystring: TradesQuery,
        response: {
          200: TradesPage,
          400: ErrorBody,
          401: ErrorBody,
        },
      },
    },
    async (request) => {
      const { limit, before, status } = request.query
      const rows = await listUserTrades(app.db, {
        userId: request.identity.userId,
        limit,
        beforeId: before === undefined ? undefined : Number(before),
        status,
      })
      return {
        success: true as const,
        trades: rows.map((row) => ({
          id: String(row.id),
          symbol: row.symbol,
          root: row.root,
          side: row.side,
          quantity: row.quantity,
          entryPrice: row.entry_price,
          exitPrice: row.exit_price,
          status: row.status,
          result: row.result,
          pnl: row.pnl,
          closeAlertId: row.close_alert_id,
          openedAt: row.opened_at.toISOString(),
          closedAt: isoOrNull(row.closed_at),
          alertRecordId: idText(row.alert_record_id),
          contract: row.contract,
          accountId: idText(row.broker_account_id),
          entryOrderId: idText(row.entry_order_id),
          stopOrderId: idText(row.stop_order_id),
          targetOrderId: idText(row.target_order_id),
          brokerExitPrice: row.broker_exit_price,
          signalExitPrice: row.signal_exit_price,
          exitRequestedAt: isoOrNull(row.exit_requested_at),
          exitNote: row.exit_note,
          parentTradeId: idText(row.parent_trade_id),
        })),
        nextCursor: nextCursorOf(rows, limit),
      }
    },
  )

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
          orderId: idText(row.order_id),
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
