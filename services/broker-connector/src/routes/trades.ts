import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { ErrorBody, Side, TradeResult, TradeStatus } from '@signals/contracts'
import { listUserTrades } from '../repositories/trades.ts'
import { NextCursor, PageQuery, isoOrNull, nextCursorOf } from './paging.ts'

const Decimal = Type.String({ description: 'exact decimal text' })
const BrokerId = Type.Union([Type.String(), Type.Null()], { description: "the broker's id" })
const idText = (id: number | null) => (id === null ? null : String(id))
const OptionalDecimal = Type.Union([Type.String(), Type.Null()], { description: 'exact decimal text, null while open' })

const TradeBody = Type.Object({
  id: Type.String(),
  symbol: Type.String(),
  root: Type.Union([Type.String(), Type.Null()]),
  side: Side,
  quantity: Decimal,
  entryPrice: Decimal,
  exitPrice: OptionalDecimal,
  status: TradeStatus,
  result: Type.Union([TradeResult, Type.Null()]),
  pnl: OptionalDecimal,
  closeAlertId: Type.Union([Type.String(), Type.Null()], { description: 'the result alert that closed it' }),
  openedAt: Type.String({ format: 'date-time' }),
  closedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  alertRecordId: Type.Union([Type.String(), Type.Null()], { description: 'the alert record whose order opened it' }),
  contract: Type.Union([Type.String(), Type.Null()], { description: 'the dated contract traded (MNQZ6)' }),
  accountId: BrokerId,
  entryOrderId: BrokerId,
  stopOrderId: BrokerId,
  targetOrderId: BrokerId,
  brokerExitPrice: Type.Union([Type.String(), Type.Null()], { description: "the broker's own exit fill, beside the alert's exit price" }),
})

/** `GET /api/trades`: the caller's own trades, newest first, optionally of one status. */
export async function tradeRoutes(app: FastifyInstance) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/trades',
    {
      schema: {
        summary: "The signed-in user's trades, newest first",
        tags: ['trades'],
        querystring: Type.Object({ ...PageQuery, status: Type.Optional(TradeStatus) }, { additionalProperties: false }),
        response: {
          200: Type.Object({ success: Type.Literal(true), trades: Type.Array(TradeBody), nextCursor: NextCursor }),
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
        })),
        nextCursor: nextCursorOf(rows, limit),
      }
    },
  )
}
