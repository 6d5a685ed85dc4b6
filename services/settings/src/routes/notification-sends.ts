import { randomUUID } from 'node:crypto'
import Type from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { notFound } from '@signals/http-kit'
import { findChannel, recordChannelOutcome } from '../repositories/notification-channels.ts'
import { recentDeliveries } from '../repositories/notification-deliveries.ts'
import { ChannelParams, DeliveriesResponse, TestSendResponse } from '../schemas/notification-channels.ts'
import { readableSecret } from '../notifications/channel-secret.ts'
import { deliveryViewOf } from '../notifications/channel-view.ts'
import type { ShownSettings } from '../notifications/channel-fields.ts'
import { sendToChannel } from '../notifications/send-to-channel.ts'
import type { CredentialsCipher } from '@signals/secrets'
import type { SenderEnvironment } from '../notifications/senders/outgoing.ts'
import { errors, tags } from './notification-channels.ts'

/** "Send a test" and the list of recent deliveries: what the trader sees of the sends. */
export const notificationSendRoutes: FastifyPluginAsyncTypebox<{ cipher: CredentialsCipher; sender: SenderEnvironment }> = async (app, options) => {
  app.post(
    '/api/notifications/channels/:id/test',
    {
      schema: { tags, summary: 'Send a test message on the channel now (one attempt) and say how it went', params: ChannelParams, response: { 200: TestSendResponse, ...errors } },
    },
    async (request) => {
      const row = await findChannel(app.db, request.identity.userId, request.params.id)
      if (!row) throw notFound('Notification channel not found')
      const secret = readableSecret(options.cipher, row)
      const message = { eventId: `test:${randomUUID()}`, kind: 'test', title: 'Test from Signals', text: `This is a test of your channel "${row.name}".`, occurredAt: new Date().toISOString() }
      const outcome =
        secret === undefined
          ? { ok: false as const, error: 'the channel secret cannot be opened with the configured keys; save the channel again' }
          : await sendToChannel(options.sender, { kind: row.kind, settings: row.settings as ShownSettings, secret }, message)
      const error = outcome.ok ? null : outcome.error
      await recordChannelOutcome(app.db, row.id, error)
      return { success: true as const, sent: outcome.ok, error }
    },
  )


  app.get(
    '/api/notifications/deliveries',
    {
      schema: {
        tags,
        summary: 'The latest notifications sent or being retried, newest first',
        querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) }, { additionalProperties: false }),
        response: { 200: DeliveriesResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, deliveries: (await recentDeliveries(app.db, request.identity.userId, request.query.limit)).map(deliveryViewOf) }),
  )
}
