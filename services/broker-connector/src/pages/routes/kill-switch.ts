import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { KillSwitchHistory, KillSwitchResponse } from '../schemas/kill-switch.ts'

/**
 * `POST /api/kill-switch`: flatten every position, cancel every working order and switch auto-place off
 * (trading/kill-switch/kill-switch.ts). `GET /api/kill-switch`: the latest uses.
 */
export const killSwitchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/kill-switch',
    {
      schema: {
        tags: ['kill switch'],
        summary: 'Flatten every position and cancel every working order at the broker, and switch auto-place off',
        response: { 200: KillSwitchResponse, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => ({ success: true as const, autoPlaceOrders: false as const, killSwitch: await app.trading.killSwitch.press(request.identity.userId, request.log) }),
  )

  app.get(
    '/api/kill-switch',
    {
      schema: {
        tags: ['kill switch'],
        summary: "The signed-in user's latest uses of the kill switch, with what the broker did",
        response: { 200: KillSwitchHistory, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => ({ success: true as const, killSwitches: await app.trading.killSwitch.recent(request.identity.userId, 20) }),
  )
}
