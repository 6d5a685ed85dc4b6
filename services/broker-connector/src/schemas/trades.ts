import Type from 'typebox'
import { Side, TradeResult, TradeStatus } from '@signals/contracts'
import { NextCursor, PageQuery } from '@signals/http-kit'

const Decimal = Type.String({ description: 'exact decimal text' })
const BrokerId = Type.Union([Type.String(), Type.Null()], { description: "the broker's id" })
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

export const TradesQuery = Type.Object({ ...PageQuery, status: Type.Optional(TradeStatus) }, { additionalProperties: false })
export const TradesPage = Type.Object({ success: Type.Literal(true), trades: Type.Array(TradeBody), nextCursor: NextCursor })
