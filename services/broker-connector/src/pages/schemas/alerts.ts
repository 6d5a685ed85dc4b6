import Type from 'typebox'
import { AlertRecordStatus, Side } from '@signals/contracts'
import { NextCursor, PageQuery } from '@signals/http-kit'

const Price = Type.Union([Type.String(), Type.Null()], { description: 'exact decimal text' })
const BrokerId = Type.Union([Type.String(), Type.Null()], { description: "the broker's order id" })

const AlertRecordBody = Type.Object({
  id: Type.String({ description: 'record id' }),
  alertId: Type.String({ description: 'the alert this record was made from (one record per alert and user)' }),
  accountId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
    description: 'the broker account the record is for (an id of `GET /api/accounts`: your primary while only it trades); null once that account was removed',
  }),
  symbol: Type.Union([Type.String(), Type.Null()]),
  root: Type.Union([Type.String(), Type.Null()], { description: 'contract root (NQ for NQ1!)' }),
  action: Type.Union([Side, Type.Null()]),
  entryPrice: Price,
  sl: Price,
  tp: Price,
  indicator: Type.Union([Type.String(), Type.Null()]),
  leverage: Price,
  rawData: Type.Unknown({
    description:
      "the original payload (secret-named fields redacted), shown to the alert's sender and administrators; `_raw: true` when it could not be parsed. Another recipient gets the normalized alert here (`_normalized: true`: action, symbol, entryPrice, sl, tp, indicator, leverage, quantity)",
  }),
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

/** `?accountId=`: one of your accounts (`GET /api/accounts`); another's, or none, answers 404. */
export const AccountFilter = Type.Optional(Type.String({ format: 'uuid', description: 'only this account of yours (an id of `GET /api/accounts`); 404 when it is not one of yours' }))

export const AlertsQuery = Type.Object({ ...PageQuery, accountId: AccountFilter }, { additionalProperties: false })
export const AlertsPage = Type.Object({ success: Type.Literal(true), alerts: Type.Array(AlertRecordBody), nextCursor: NextCursor })
