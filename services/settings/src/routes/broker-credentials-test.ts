import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { testCredentials } from '../broker/credentials-tester.ts'
import { TestCredentialsResponse } from '../schemas/broker-credentials.ts'

/** `POST /api/broker-credentials/test` (issue 25, item 4; docs/decisions/settings.md). */
export const brokerCredentialsTestRoutes: FastifyPluginAsyncTypebox<{ credentialsTestTimeoutMs: number }> = async (app, options) => {
  app.post(
    '/api/broker-credentials/test',
    {
      schema: {
        tags: ['broker credentials'],
        summary: 'Try the stored broker login at the broker now and return its words (nothing is traded, the feed is untouched)',
        response: { 200: TestCredentialsResponse, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      const test = await testCredentials(app.bus, request.identity.userId, { timeoutMs: options.credentialsTestTimeoutMs, logger: app.log })
      request.log.info({ loginOk: test.ok, loginKind: test.kind }, 'broker login tested')
      return { success: true as const, test }
    },
  )
}
