import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { conflict, notFound } from '@signals/http-kit'
import { requestFlattens } from '../../repositories/flatten-requests.ts'
import { requestLateExits } from '../../repositories/exit-targets.ts'
import { latestFlattenOf, noteCloseReasonIn, tradeToClose } from '../../repositories/trade-close.ts'
import { TradeCloseParams, TradeCloseResponse } from '../schemas/kill-switch.ts'

/**
 * `POST /api/trades/:id/close` (issue 25, item 2; docs/decisions/web.md): the trader closes one open trade
 * from its row. Like a result alert, it is a durable flatten of the trade's contract on its side, carried
 * out by the instance holding the user's session; the trade closes from the broker's fill. The broker
 * holds one position per contract, so our other trades on that side of the contract close with it.
 */
export const tradeCloseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/trades/:id/close',
    {
      schema: {
        tags: ['trades'],
        summary: "Close one open trade: flatten its contract's position on its side at the broker; the trade closes at the fill",
        params: TradeCloseParams,
        response: { 200: TradeCloseResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      const userId = request.identity.userId
      const trade = await tradeToClose(app.db, userId, request.params.id)
      if (!trade) throw notFound(`Trade ${request.params.id} not found`)
      if (trade.status !== 'open') throw conflict(`Trade ${trade.id} is already closed`)
      if (trade.broker_contract_id === null || trade.contract === null) {
        throw conflict(`Trade ${trade.id} has no position at the broker (its order was not placed there): it closes with its strategy's result alert`)
      }
      const { contract, broker_contract_id: brokerContractId, side } = trade
      const reason = `You closed it from the trades list: the ${side} ${contract} position at the broker was flattened.`
      await app.db.transaction().execute(async (trx) => {
        await noteCloseReasonIn(trx, { userId, brokerContractId, side }, reason)
        await requestFlattens(trx, [{ userId, contract, brokerContractId, side, alertId: null, result: 'Session End', signalExitPrice: null, signalAt: new Date().toISOString() }])
        await requestLateExits(trx, [trade.id], { alertId: null, result: 'Session End', signalExitPrice: null })
      })
      request.log.info({ tradeId: trade.id, contract, side }, 'trade closed by the trader')
      await app.trading.flattenDispatch.dispatch([userId])
      const flatten = await latestFlattenOf(app.db, userId, contract)
      const sent = flatten?.done_at != null
      return {
        success: true as const,
        tradeId: String(trade.id),
        exit: sent ? ('sent' as const) : ('waiting' as const),
        detail: (sent ? flatten.outcome : flatten?.reason) ?? 'the exit waits for the broker connection',
      }
    },
  )
}
