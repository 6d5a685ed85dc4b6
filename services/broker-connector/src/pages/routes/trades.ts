import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { listUserTrades } from '../../repositories/trades.ts'
import { TradesPage, TradesQuery } from '../schemas/trades.ts'
import { isoOrNull, nextCursorOf } from '@signals/http-kit'
import { ownAccountFilter } from './account-filter.ts'

const idText = (id: number | null) => (id === null ? null : String(id))

/** `GET /api/trades`: the caller's own trades, newest first, optionally of one status and one of their accounts. */
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
          404: ErrorBody,
        },
      },
    },
    async (request) => {
      const { limit, before, status } = request.query
      const userId = request.identity.userId
      const accountId = await ownAccountFilter(app.db, userId, request.query.accountId)
      const rows = await listUserTrades(app.db, {
        userId,
        limit,
        beforeId: before === undefined ? undefined : Number(before),
        status,
        accountId,
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
          accountId: row.account_id,
          brokerAccountId: idText(row.broker_account_id),
          entryOrderId: idText(row.entry_order_id),
          stopOrderId: idText(row.stop_order_id),
          targetOrderId: idText(row.target_order_id),
          brokerExitPrice: row.broker_exit_price,
          signalExitPrice: row.signal_exit_price,
          exitRequestedAt: isoOrNull(row.exit_requested_at),
          exitNote: row.exit_note,
          parentTradeId: idText(row.parent_trade_id),
          closeReason: row.close_reason,
        })),
        nextCursor: nextCursorOf(rows, limit),
      }
    },
  )
}
