import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { parseDecimal, toPlain } from '@signals/instruments'
import { alertStepRows } from '../../repositories/alert-steps.ts'
import { AlertStepsParams, AlertStepsResponse } from '../schemas/broker-view.ts'

type Rows = NonNullable<Awaited<ReturnType<typeof alertStepRows>>>
type Step = { step: 'received' | 'sent' | 'accepted' | 'decided' | 'filled' | 'exit_requested' | 'exited'; at: Date; detail: string; tradeId: string | null }

const PLACING = new Set(['placing', 'placed'])
/** Stored decimals read with their column's scale (`21000.00000000`): shown plain (`21000`). */
const plain = (value: string | null) => (value === null ? '?' : toPlain(parseDecimal(value)))

/** The record's steps from its columns and its trades' (docs/decisions/broker-connector.md, "Alert steps"). */
function stepsOf({ record, trades }: Rows): Step[] {
  const steps: Step[] = [{ step: 'received', at: record.received_at, detail: 'alert received', tradeId: null }]
  const order = `${record.order_quantity ?? '?'} x ${record.contract ?? 'the contract'}`
  // The decision to place is committed with the send; a refusal or failure has its own time.
  if (record.sent_at !== null && PLACING.has(record.status)) steps.push({ step: 'decided', at: record.sent_at, detail: `placing ${order}`, tradeId: null })
  else if (record.decided_at !== null && !PLACING.has(record.status)) steps.push({ step: 'decided', at: record.decided_at, detail: `${record.status.replace('_', ' ')}${record.reason === null ? '' : `: ${record.reason}`}`, tradeId: null })
  if (record.sent_at !== null) steps.push({ step: 'sent', at: record.sent_at, detail: `order ${record.order_tag ?? ''} sent to the broker (attempt ${record.send_attempts})`.replace('  ', ' '), tradeId: null })
  if (record.placed_at !== null) steps.push({ step: 'accepted', at: record.placed_at, detail: `the broker accepted entry order ${record.entry_order_id ?? '(id unknown)'}`, tradeId: null })
  for (const trade of trades) {
    const tradeId = String(trade.id)
    steps.push({ step: 'filled', at: trade.opened_at, detail: `entry filled: ${trade.side} ${plain(trade.quantity)} at ${plain(trade.entry_price)}`, tradeId })
    if (trade.exit_requested_at !== null) steps.push({ step: 'exit_requested', at: trade.exit_requested_at, detail: 'exit sent to the broker', tradeId })
    if (trade.closed_at !== null) {
      const result = trade.result === null ? '' : ` (${trade.result})`
      steps.push({ step: 'exited', at: trade.closed_at, detail: `closed at ${plain(trade.exit_price)}${result}, pnl ${plain(trade.pnl)}${trade.close_reason === null ? '' : `: ${trade.close_reason}`}`, tradeId })
    }
  }
  // In the order they happened (a fill may be recorded before the broker's answer to the order); stable:
  // steps of the same instant keep the order of the flow.
  return steps.sort((a, b) => a.at.getTime() - b.at.getTime())
}

/** `GET /api/alerts/:id/steps`: every step of one of the caller's alert records with its time (issue 25, item 3). */
export const alertStepsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/alerts/:id/steps',
    {
      schema: {
        summary: "Every step of one of the signed-in user's alert records, with its time (received, decided, sent, accepted, filled, exit)",
        tags: ['alerts'],
        params: AlertStepsParams,
        response: { 200: AlertStepsResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const rows = await alertStepRows(app.db, request.identity.userId, Number(request.params.id))
      if (!rows) return reply.code(404).send({ success: false, error: 'No alert record of yours has this id' })
      return {
        success: true as const,
        id: String(rows.record.id),
        alertId: rows.record.alert_id,
        status: rows.record.status,
        steps: stepsOf(rows).map((step) => ({ ...step, at: step.at.toISOString() })),
      }
    },
  )
}
