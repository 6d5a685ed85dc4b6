import Type from 'typebox'
import { Side, TradeResult, TradeStatus } from '@signals/contracts'
import { NextCursor, PageQuery } from '@signals/http-kit'
import { AccountFilter } from './alerts.ts'

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
  accountId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
    description: 'the broker account it was traded on (an id of `GET /api/accounts`); null once that account was removed',
  }),
  brokerAccountId: Type.Union([Type.String(), Type.Null()], { description: "the broker's own id of that account (Tradovate's account number), null for a trade no broker fill opened" }),
  entryOrderId: BrokerId,
  stopOrderId: BrokerId,
  targetOrderId: BrokerId,
  brokerExitPrice: Type.Union([Type.String(), Type.Null()], { description: "the broker's exit fill price (weighted over the fills that closed it)" }),
  signalExitPrice: Type.Union([Type.String(), Type.Null()], { description: "the exit alert's price (the signal's exit); a broker-backed trade's exitPrice is the broker's fill" }),
  exitRequestedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'when an exit alert asked to close it; while the trade is open the exit is on its way to the broker',
  }),
  exitNote: Type.Union([Type.String(), Type.Null()], { description: 'where the exit stands, for the trader: why it waits, or what the broker did' }),
  parentTradeId: Type.Union([Type.String(), Type.Null()], { description: 'a part of a trade closed by a fill of part of its quantity: the trade it came from' }),
  closeReason: Type.Union([Type.String(), Type.Null()], { description: 'why the platform closed it when no signal did (the risk watchdog: hard daily loss limit or drawdown floor)' }),
})

export const TradesQuery = Type.Object({ ...PageQuery, status: Type.Optional(TradeStatus), accountId: AccountFilter }, { additionalProperties: false })
export const TradesPage = Type.Object({ success: Type.Literal(true), trades: Type.Array(TradeBody), nextCursor: NextCursor })

const DiscrepancyBody = Type.Object({
  id: Type.String(),
  contract: Type.Union([Type.String(), Type.Null()], { description: 'the dated contract, when one of our trades names it' }),
  accountId: Type.String({ description: "the broker's account id" }),
  kind: Type.Union([Type.Literal('untracked_position'), Type.Literal('broker_flat'), Type.Literal('quantity_differs'), Type.Literal('stray_order'), Type.Literal('stops_differ')]),
  brokerQty: Type.Integer({ description: "the broker's position, signed (long positive)" }),
  ourQty: Type.Integer({ description: "our open trades' quantity in the contract, signed" }),
  orderId: BrokerId,
  action: Type.String({ description: 'what was done about it' }),
  reason: Type.String(),
  foundAt: Type.String({ format: 'date-time' }),
  lastSeenAt: Type.String({ format: 'date-time' }),
  resolvedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null while the difference stands' }),
})

export const DiscrepanciesQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) }, { additionalProperties: false })
export const DiscrepanciesList = Type.Object({ success: Type.Literal(true), discrepancies: Type.Array(DiscrepancyBody) })
