import Type from 'typebox'
import { BrokerOrdersBody, BrokerPositionsBody, BrokerViewState } from '@signals/contracts'

const Time = Type.String({ format: 'date-time' })

/** `GET /api/alerts/:id/steps` */
export const AlertStepsParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,17}$', description: 'the alert record id' }) }, { additionalProperties: false })

const AlertStep = Type.Object({
  step: Type.Union([Type.Literal('received'), Type.Literal('sent'), Type.Literal('accepted'), Type.Literal('decided'), Type.Literal('filled'), Type.Literal('exit_requested'), Type.Literal('exited')]),
  at: Time,
  detail: Type.String({ description: 'what happened at this step, in words for the trader' }),
  tradeId: Type.Union([Type.String(), Type.Null()], { description: 'the trade the step is of (filled, exit steps)' }),
})

export const AlertStepsResponse = Type.Object({
  success: Type.Literal(true),
  id: Type.String(),
  alertId: Type.String(),
  status: Type.String({ description: 'the record status now' }),
  steps: Type.Array(AlertStep, { description: 'oldest first' }),
})

const Decimal = Type.Union([Type.String(), Type.Null()], { description: 'exact decimal text, or null when not known' })

/** The state of the read and why, beside whatever was read (docs/decisions/broker-connector.md, "Broker view"). */
const ReadState = {
  success: Type.Literal(true),
  state: BrokerViewState,
  detail: Type.Union([Type.String(), Type.Null()], { description: 'why the state is not `live`, in words for the trader' }),
}

export const BrokerPositionsResponse = Type.Object({
  ...ReadState,
  session: Type.Union([BrokerPositionsBody, Type.Null()], { description: "what the broker session says; null unless the state is live or stale" }),
  computed: Type.Object(
    {
      balance: Decimal,
      todayRealizedPnl: Decimal,
      startingBalance: Decimal,
    },
    { description: 'our own figures from our trades (starting balance plus realized pnl), the account state the risk engine counts without the broker' },
  ),
})

export const BrokerOrdersQuery = Type.Object(
  { limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'how many of the latest orders' }) },
  { additionalProperties: false },
)

export const BrokerOrdersResponse = Type.Object({
  ...ReadState,
  session: Type.Union([BrokerOrdersBody, Type.Null()]),
})
