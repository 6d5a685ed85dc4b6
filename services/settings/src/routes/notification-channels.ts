import { randomUUID } from 'node:crypto'
import Type from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { badRequest, notFound } from '@signals/http-kit'
import type { NotificationChannelRow } from '@signals/db'
import type { CredentialsCipher } from '@signals/secrets'
import { deleteChannel, findChannel, insertChannel, listChannels, recordChannelOutcome, updateChannel } from '../repositories/notification-channels.ts'
import { recentDeliveries } from '../repositories/notification-deliveries.ts'
import {
  ChannelBody,
  ChannelParams,
  ChannelResponse,
  ChannelsResponse,
  DeleteChannelResponse,
  DeliveriesResponse,
  TestSendResponse,
} from '../schemas/notification-channels.ts'
import { SECRET_FIELD, splitChannelBody } from '../notifications/channel-fields.ts'
import { openChannelSecret, sealChannelSecret } from '../notifications/channel-secret.ts'
import { channelViewOf, deliveryViewOf } from '../notifications/channel-view.ts'
import { targetProblem, type TargetRules } from '../notifications/channel-targets.ts'
import { sendToChannel } from '../notifications/send-to-channel.ts'
import type { SenderEnvironment } from '../notifications/senders/outgoing.ts'
import { isMissingUser } from './options.ts'

export interface NotificationRouteOptions {
  cipher: CredentialsCipher
  targets: TargetRules
  sender: SenderEnvironment
}

const tags = ['notifications']
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 500: ErrorBody }

export const notificationChannelRoutes: FastifyPluginAsyncTypebox<NotificationRouteOptions> = async (app, options) => {
  const { cipher } = options
  const secretOf = (row: NotificationChannelRow): string | null | undefined => {
    try {
      return openChannelSecret(cipher, row)
    } catch {
      return undefined
    }
  }
  const view = (row: NotificationChannelRow) => channelViewOf(row, (secretOf(row) ?? null) !== null)

  /** The stored fields of a body: the secret sealed (the stored one kept when the body leaves it out). */
  const fieldsOf = (userId: string, id: string, body: ChannelBody, existing: NotificationChannelRow | null) => {
    const { settings, secret } = splitChannelBody(body)
    const kept = existing ? secretOf(existing) : null
    if (existing && kept === undefined && secret === undefined) throw badRequest(`Invalid notification channel: ${SECRET_FIELD[body.kind]} is required (the stored one cannot be opened)`)
    const effective = secret ?? kept ?? null
    if (effective === null && body.kind !== 'email') throw badRequest(`Invalid notification channel: ${SECRET_FIELD[body.kind]} is required`)
    const problem = targetProblem(options.targets, body.kind, settings, effective)
    if (problem !== null) throw badRequest(`Invalid notification channel: ${problem}`)
    return { name: body.name, enabled: body.enabled ?? true, events: body.events, settings, sealed: sealChannelSecret(cipher, { userId, id, kind: body.kind }, effective) }
  }

  app.get(
    '/api/notifications/channels',
    { schema: { tags, summary: "The trader's notification channels; never a secret", response: { 200: ChannelsResponse, ...errors } } },
    async (request) => ({ success: true as const, channels: (await listChannels(app.db, request.identity.userId)).map(view) }),
  )

  app.post(
    '/api/notifications/channels',
    { schema: { tags, summary: 'Add a channel (its secret sealed with AES-256-GCM)', body: ChannelBody, response: { 200: ChannelResponse, ...errors } } },
    async (request) => {
      const userId = request.identity.userId
      const id = randomUUID()
      const row = await insertChannel(app.db, { id, userId, kind: request.body.kind, ...fieldsOf(userId, id, request.body, null) }).catch((error: unknown) => {
        throw isMissingUser(error) ? notFound('User not found') : error
      })
      request.log.info({ channelId: id, kind: row.kind }, 'notification channel added')
      return { success: true as const, channel: view(row) }
    },
  )

  app.put(
    '/api/notifications/channels/:id',
    {
      schema: { tags, summary: 'Replace a channel; a secret left out is kept', params: ChannelParams, body: ChannelBody, response: { 200: ChannelResponse, ...errors } },
    },
    async (request) => {
      const userId = request.identity.userId
      const existing = await findChannel(app.db, userId, request.params.id)
      if (!existing) throw notFound('Notification channel not found')
      if (existing.kind !== request.body.kind) throw badRequest(`Invalid notification channel: kind cannot change (this channel is ${existing.kind})`)
      const row = await updateChannel(app.db, userId, existing.id, fieldsOf(userId, existing.id, request.body, existing))
      if (!row) throw notFound('Notification channel not found')
      return { success: true as const, channel: view(row) }
    },
  )

  app.delete(
    '/api/notifications/channels/:id',
    { schema: { tags, summary: 'Delete a channel and its deliveries', params: ChannelParams, response: { 200: DeleteChannelResponse, ...errors } } },
    async (request) => ({ success: true as const, deleted: await deleteChannel(app.db, request.identity.userId, request.params.id) }),
  )

  app.post(
    '/api/notifications/channels/:id/test',
    {
      schema: { tags, summary: 'Send a test message on the channel now (one attempt) and say how it went', params: ChannelParams, response: { 200: TestSendResponse, ...errors } },
    },
    async (request) => {
      const row = await findChannel(app.db, request.identity.userId, request.params.id)
      if (!row) throw notFound('Notification channel not found')
      const secret = secretOf(row)
      const message = { eventId: `test:${randomUUID()}`, kind: 'test', title: 'Test from Signals', text: `This is a test of your channel "${row.name}".`, occurredAt: new Date().toISOString() }
      const outcome =
        secret === undefined
          ? { ok: false as const, error: 'the channel secret cannot be opened with the configured keys; save the channel again' }
          : await sendToChannel(options.sender, { kind: row.kind, settings: row.settings as Record<string, string>, secret }, message)
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
