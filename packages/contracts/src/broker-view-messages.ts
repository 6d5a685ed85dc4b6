import Type, { type Static } from 'typebox'

const Decimal = Type.Union([Type.String({ maxLength: 40 }), Type.Null()], { description: 'exact decimal text, or null when not known' })
const Time = Type.Union([Type.String({ format: 'date-time' }), Type.Null()])
const Side = Type.Union([Type.Literal('Buy'), Type.Literal('Sell')])

/**
 * What the broker session says, as a state the trader reads plainly (docs/decisions/broker-connector.md,
 * "Broker view"): `live` read from the session now; `stale` read, but the broker has sent nothing for a
 * while; `no_session` no broker session is open (live trading off, or the connection down);
 * `unavailable` the connector holding the session did not answer.
 */
export const BrokerViewState = Type.Union([Type.Literal('live'), Type.Literal('stale'), Type.Literal('no_session'), Type.Literal('unavailable')])

export const BrokerViewPosition = Type.Object({
  contract: Type.Union([Type.String(), Type.Null()], { description: 'the dated contract (MNQZ6), null when the broker did not name it' }),
  contractId: Type.String(),
  side: Type.Union([Type.Literal('LONG'), Type.Literal('SHORT')]),
  quantity: Type.Integer({ minimum: 1 }),
  averagePrice: Decimal,
  marketPrice: Decimal,
  marketPriceAt: Time,
  unrealizedPnl: Decimal,
  /** Why there is no unrealized pnl (no quote, unknown point value...); null when there is one. */
  unpricedReason: Type.Union([Type.String(), Type.Null()]),
  ours: Type.Boolean({ description: 'whether open trades of ours are in this contract on this account' }),
  tradeIds: Type.Array(Type.String()),
  /** The quantity our open trades hold in this contract (signed: positive long); a difference is the trader's own. */
  ourNetQuantity: Type.Integer(),
  /** What the working stops closing it at the broker still close, summed (the whole-position stop and each target's stop). */
  stopQuantity: Type.Integer({ minimum: 0 }),
  /** Said when the stops close fewer contracts than held (some unprotected) or more (they could reverse it); null when they match. */
  stopNote: Type.Union([Type.String(), Type.Null()]),
})

export const BrokerViewOrder = Type.Object({
  id: Type.String(),
  contract: Type.Union([Type.String(), Type.Null()]),
  side: Side,
  type: Type.Union([Type.String(), Type.Null()], { description: 'Market, Limit, Stop, StopLimit...' }),
  quantity: Type.Union([Type.Integer(), Type.Null()]),
  price: Decimal,
  stopPrice: Decimal,
  status: Type.String(),
  tag: Type.Union([Type.String(), Type.Null()], { description: 'our tag, when we placed it' }),
  ours: Type.Boolean(),
  /** The alert record the tag names (`sig-<id>`, `.sl`, `.tp`). */
  recordId: Type.Union([Type.String(), Type.Null()]),
  /** The broker's words (a rejection). */
  text: Type.Union([Type.String(), Type.Null()]),
})

export const BrokerViewFill = Type.Object({
  id: Type.String(),
  orderId: Type.String(),
  contract: Type.Union([Type.String(), Type.Null()]),
  side: Side,
  quantity: Type.Integer(),
  price: Type.String(),
  at: Type.String(),
  /** What the fill cost, every fee the broker charged summed (Tradovate FillFee); null when the broker reported none. */
  commission: Type.Union([Type.String(), Type.Null()]),
})

/** One of our trades with fills the broker lists: what it cost and its pnl net of that. */
export const TradeCommission = Type.Object({
  tradeId: Type.String(),
  contract: Type.Union([Type.String(), Type.Null()]),
  side: Type.Union([Type.Literal('LONG'), Type.Literal('SHORT')]),
  quantity: Type.Number(),
  status: Type.String(),
  /** Gross, as the trades list shows it; null while open. */
  pnl: Type.Union([Type.String(), Type.Null()]),
  /** Its share of its entry and exit fills' fees; null when a fill it needs is not listed today or has no fee. */
  commission: Type.Union([Type.String(), Type.Null()]),
  /** pnl − commission, once closed and the commission known. */
  netPnl: Type.Union([Type.String(), Type.Null()]),
})
export type TradeCommission = Static<typeof TradeCommission>

export const BrokerViewBalance = Type.Object({
  brokerCash: Decimal,
  brokerRealizedPnl: Decimal,
  brokerTradeDate: Type.Union([Type.String(), Type.Null()]),
})

export const BrokerPositionsBody = Type.Object({
  account: Type.Union([Type.String(), Type.Null()]),
  heardAt: Time,
  positions: Type.Array(BrokerViewPosition),
  workingOrders: Type.Array(BrokerViewOrder),
  broker: BrokerViewBalance,
})
export type BrokerPositionsBody = Static<typeof BrokerPositionsBody>

export const BrokerOrdersBody = Type.Object({
  account: Type.Union([Type.String(), Type.Null()]),
  heardAt: Time,
  orders: Type.Array(BrokerViewOrder),
  fills: Type.Array(BrokerViewFill),
  /** The listed fills' fees summed (Tradovate `fillFee/ldeps`); null when the broker reported a fee for none of them. */
  commissions: Type.Union([Type.String(), Type.Null()]),
  /** Our trades with fills among the day's (the broker lists the day's fills): each one's commission and net pnl. */
  tradeCommissions: Type.Array(TradeCommission),
})
export type BrokerOrdersBody = Static<typeof BrokerOrdersBody>

/** Core request `connector.<instanceId>.broker-view`: what the session of one user says, read by the holder. */
export const BrokerViewRequestV1 = Type.Object(
  {
    version: Type.Literal(1),
    userId: Type.String({ minLength: 1, maxLength: 255 }),
    what: Type.Union([Type.Literal('positions'), Type.Literal('orders')]),
    limit: Type.Integer({ minimum: 1, maximum: 200 }),
  },
  { additionalProperties: false },
)
export type BrokerViewRequest = Static<typeof BrokerViewRequestV1>

export const BrokerViewReplyV1 = Type.Object(
  {
    version: Type.Literal(1),
    /** `unavailable`: the holder could not read the session (the broker did not answer; `detail` says so). */
    outcome: Type.Union([Type.Literal('read'), Type.Literal('no_session'), Type.Literal('unavailable'), Type.Literal('not_held')]),
    stale: Type.Boolean(),
    detail: Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]),
    positions: Type.Union([BrokerPositionsBody, Type.Null()]),
    orders: Type.Union([BrokerOrdersBody, Type.Null()]),
  },
  { additionalProperties: false },
)
export type BrokerViewReply = Static<typeof BrokerViewReplyV1>
