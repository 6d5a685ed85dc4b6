import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody, brokerInfos } from '@signals/contracts'
import { BrokersResponse } from '../schemas/broker-credentials.ts'

/** The broker registry as the page needs it, to draw the credentials form of the broker the trader picks. */
export const brokersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/brokers',
    {
      schema: {
        tags: ['broker credentials'],
        summary: "Each broker's credentials form (the fields beside broker, environment and accountId) and its capabilities",
        response: { 200: BrokersResponse, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async () => ({ success: true as const, brokers: brokerInfos() }),
  )
}
