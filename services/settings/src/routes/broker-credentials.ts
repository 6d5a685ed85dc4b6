import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody, checkBrokerCredentials, sealedCredentialsOf } from '@signals/contracts'
import { badRequest, notFound } from '@signals/http-kit'
import { sealCredentials, type CredentialsCipher } from '@signals/secrets'
import { findPrimaryLogin } from '@signals/db'
import { deletePrimaryLogin, savePrimaryLogin } from '../repositories/primary-login.ts'
import { readPrimarySwitches } from '../repositories/primary-switches.ts'
import { enqueueFeedCommand } from '../repositories/feed-commands.ts'
import { deliverFeedCommand } from '../feed/deliver-feed-command.ts'
import { summarizeCredentials } from '../credentials-summary.ts'
import { BrokerCredentialsBody, CredentialsResponse, DeleteCredentialsResponse, SaveCredentialsResponse } from '../schemas/broker-credentials.ts'
import { testCredentials } from '../broker/credentials-tester.ts'
import { isMissingUser, type RouteOptions } from './options.ts'
import { accountAlreadyLinked } from '../accounts/account-refusals.ts'

export const brokerCredentialsRoutes: FastifyPluginAsyncTypebox<RouteOptions & { cipher: CredentialsCipher; credentialsTestTimeoutMs: number }> = async (app, options) => {
  const { cipher } = options

  app.get(
    '/api/broker-credentials',
    {
      schema: {
        tags: ['broker credentials'],
        summary: 'The stored broker credentials, masked: never a secret',
        response: { 200: CredentialsResponse, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      const row = await findPrimaryLogin(app.db, request.identity.userId)
      return { success: true as const, credentials: row ? summarizeCredentials(row, cipher) : null }
    },
  )

  app.put(
    '/api/broker-credentials',
    {
      schema: {
        tags: ['broker credentials'],
        summary: 'Save (replace) the broker credentials, sealed with AES-256-GCM, then try the login at the broker; restarts the feed when live trading is on',
        body: BrokerCredentialsBody,
        response: { 200: SaveCredentialsResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      const userId = request.identity.userId
      const { broker, environment, accountId, ...fields } = request.body
      const body = { broker, environment, accountId }
      // The schema above knows every broker's fields; the chosen broker's own schema says which it needs.
      const checked = checkBrokerCredentials(broker, fields)
      if (!checked.ok) throw badRequest(`Invalid broker credentials: ${checked.problem}`)
      const sealed = sealCredentials(cipher, { userId, ...body }, { ...sealedCredentialsOf(broker, checked.credentials) })

      const { row, command } = await app.db
        .transaction()
        .execute(async (trx) => {
          const row = await savePrimaryLogin(trx, userId, body, sealed)
          if (!row) throw notFound('User not found')
          if (row === 'account_taken') throw accountAlreadyLinked()
          const live = await readPrimarySwitches(trx, userId, true)
          const command = live.enabled
            ? await enqueueFeedCommand(trx, { userId, action: 'restart', reason: 'broker credentials changed' })
            : null
          return { row, command }
        })
        .catch((error: unknown) => {
          throw isMissingUser(error) ? notFound('User not found') : error
        })

      const feedCommand = command ? await deliverFeedCommand(app, command, options.feedPublishTimeoutMs) : null
      // Saved whatever the broker says (it may be down for a moment); the answer tells the trader at once.
      const test = await testCredentials(app.bus, userId, { timeoutMs: options.credentialsTestTimeoutMs, logger: app.log })
      request.log.info({ broker: row.broker, environment: row.environment, keyId: row.key_id, restart: feedCommand?.delivery ?? 'none', loginOk: test.ok, loginKind: test.kind }, 'broker credentials saved')
      return { success: true as const, credentials: summarizeCredentials(row, cipher), feedCommand, test }
    },
  )

  app.delete(
    '/api/broker-credentials',
    {
      schema: {
        tags: ['broker credentials'],
        summary: 'Delete the broker credentials; stops the feed when live trading is on',
        response: { 200: DeleteCredentialsResponse, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      const userId = request.identity.userId
      const { deleted, command } = await app.db.transaction().execute(async (trx) => {
        const deleted = await deletePrimaryLogin(trx, userId)
        const live = deleted ? await readPrimarySwitches(trx, userId, true) : { enabled: false }
        const command = live.enabled ? await enqueueFeedCommand(trx, { userId, action: 'stop', reason: 'broker credentials removed' }) : null
        return { deleted, command }
      })
      const feedCommand = command ? await deliverFeedCommand(app, command, options.feedPublishTimeoutMs) : null
      if (deleted) request.log.info({ stop: feedCommand?.delivery ?? 'none' }, 'broker credentials deleted')
      return { success: true as const, deleted, feedCommand }
    },
  )
}
