import { randomUUID } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { badRequest, notFound } from '@signals/http-kit'
import type { NotificationChannelRow } from '@signals/db'
import type { CredentialsCipher } from '@signals/secrets'
import { deleteChannel, findChannel, insertChannel, listChannels, updateChannel } from '../repositories/notification-channels.ts'
import {
  ChannelBody,
  ChannelParams,
  ChannelResponse,
  ChannelsResponse,
  DeleteChannelResponse,
} from '../schemas/notification-channels.ts'
import { SECRET_FIELD, splitChannelBody } from '../notifications/channel-fields.ts'
import { readableSecret, sealChannelSecret } from '../notifications/channel-secret.ts'
import { channelViewOf } from '../notifications/channel-view.ts'
import { targetProblem, type TargetRules } from '../notifications/channel-targets.ts'
import { isMissingUser } from './options.ts'

export interface NotificationRouteOptions {
  cipher: CredentialsCipher
  targets: TargetRules
}

export const tags = ['notifications']
export const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 500: ErrorBody }

export const notificationChannelRoutes: FastifyPluginAsyncTypebox<NotificationRouteOptions> = async (app, options) => {
  const { cipher } = options
  const secretOf = (row: NotificationChannelRow) => readableSecret(cipher, row)
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
}
