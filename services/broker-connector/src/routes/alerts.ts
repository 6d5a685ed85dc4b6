import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { AlertRecordStatus, ErrorBody, Side } from '@signals/contracts'
import { listUserAlerts } from '../repositories/alerts.ts'
import { NextCursor, PageQuery, isoOrNull, nextCursorOf } from './paging.ts'

const Price = Type.Union([Type.String(), Type.Null()], { description: 'exact decimal text' })
const BrokerId = Type.Union([Type.String(), Type.Null()], { description: "the broker's order id" })
const idText = (id: number | null) => (id === null ? null : String(id))

const AlertRecordBody = Type.Object({
  id: Type.String({ description: 'record id' }),
  alertId: Type.String({ description: 'the alert this record was made from (one record per alert and user)' }),
  symbol: Type.Union([Type.String(), Type.Null()]),
  root: Type.Union([Type.String(), Type.Null()], { description: 'contract root (NQ for NQ1!)' }),
  action: Type.Union([Side, Type.Null()]),
  entryPrice: Price,
  sl: Price,
  tp: Price,
  indicator: Type.Union([Type.String(), Type.Null()]),
  leverage: Price,
  rawData: Type.Unknown({ description: 'the original payload; `_raw: true` when it could not be parsed' }),
  status: Type.Unsafe<AlertRecordStatus>({ ...AlertRecordStatus, description: 'order outcome: received -> placing -> placed | refused | failed; not_placed when automatic placement is off' }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'why no order was placed (refused, failed, not placed), or why it waits' }),
  refusalCode: Type.Union([Type.String(), Type.Null()], { description: "machine-readable refusal (the risk engine's code, or incomplete_alert, unknown_contract, stale_alert)" }),
  alertQuantity: Price,
  orderQuantity: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'contracts ordered' }),
  orderTag: Type.Union([Type.String(), Type.Null()], { description: 'our tag on the entry order at the broker' }),
  contract: Type.Union([Type.String(), Type.Null()], { description: 'the dated contract ordered (MNQZ6)' }),
  entryOrderId: BrokerId,
  stopOrderId: BrokerId,
  targetOrderId: BrokerId,
  placedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  receivedAt: Type.String({ format: 'date-time' }),
  createdAt: Type.String({ format: 'date-time' }),
})

/** `GET /api/alerts`: the caller's own alert records, newest first. Test alerts belong to no trader. */
export async function alertRoutes(app: FastifyInstance) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/alerts',
    {
      schema: {
        summary: "The signed-in user's alert records, newest first",
        tags: ['alerts'],
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: {
          200: Type.Object({ success: Type.Literal(true), alerts: Type.Array(AlertRecordBody), nextCursor: NextCursor }),
          400: ErrorBody,
          401: ErrorBody,
        },
      },
    },
    async (request) => {
      const { limit, before } = request.query
      const rows = await listUserAlerts(app.db, {
        userId: request.identity.userId,
        limit,
        beforeId: before === undefined ? undefined : Number(before),
      })
      return {
        success: true as const,
        alerts: rows.map((row) => ({
          id: String(row.id),
          alertId: row.alert_id,
          symbol: row.symbol,
          root: row.root,
          action: row.action,
          entryPrice: row.entry_price,
          sl: row.sl,
          tp: row.tp,
          indicator: row.indicator,
          leverage: row.leverage,
          rawData: row.raw_data,
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
