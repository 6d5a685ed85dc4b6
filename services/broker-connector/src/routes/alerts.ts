import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { ErrorBody } from '@signals/http-kit'
import { listUserAlerts } from '../repositories/alerts.ts'
import { NextCursor, PageQuery, nextCursorOf } from './paging.ts'

const Price = Type.Union([Type.String(), Type.Null()], { description: 'exact decimal text' })

export const AlertRecordBody = Type.Object({
  id: Type.String({ description: 'record id' }),
  alertId: Type.String({ description: 'the alert this record was made from (one record per alert and user)' }),
  symbol: Type.Union([Type.String(), Type.Null()]),
  root: Type.Union([Type.String(), Type.Null()], { description: 'contract root (NQ for NQ1!)' }),
  action: Type.Union([Type.Literal('LONG'), Type.Literal('SHORT'), Type.Null()]),
  entryPrice: Price,
  sl: Price,
  tp: Price,
  indicator: Type.Union([Type.String(), Type.Null()]),
  leverage: Price,
  rawData: Type.Unknown({ description: 'the original payload; `_raw: true` when it could not be parsed' }),
  status: Type.String({ description: 'received, queued (handed to the entry flow) or incomplete' }),
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
          receivedAt: row.received_at.toISOString(),
          createdAt: row.created_at.toISOString(),
        })),
        nextCursor: nextCursorOf(rows, limit),
      }
    },
  )
}
