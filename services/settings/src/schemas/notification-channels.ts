import Type, { type Static } from 'typebox'
import { NotificationEventKind } from '@signals/contracts'

const Name = Type.String({ minLength: 1, maxLength: 100, description: 'a name the trader recognises' })
const Events = Type.Array(NotificationEventKind, { uniqueItems: true, maxItems: 8, description: 'the events this channel is told about' })
const Enabled = Type.Optional(Type.Boolean({ description: 'default true' }))
const Secret = (description: string, minLength = 1) => Type.Optional(Type.String({ minLength, maxLength: 512, writeOnly: true, description: `${description}; stored sealed, never shown; omit on update to keep` }))

const EmailChannelBody = Type.Object(
  {
    kind: Type.Literal('email'),
    name: Name,
    enabled: Enabled,
    events: Events,
    smtpHost: Type.String({ minLength: 1, maxLength: 255, description: 'SMTP server host' }),
    smtpPort: Type.Integer({ minimum: 1, maximum: 65_535, description: '587 (STARTTLS when offered), 465 with smtpTls' }),
    smtpTls: Type.Boolean({ description: 'TLS from the first byte (port 465); otherwise STARTTLS when the server offers it' }),
    smtpUsername: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'SMTP login; omit for a server without authentication' })),
    smtpPassword: Secret('SMTP password'),
    from: Type.String({ format: 'email', maxLength: 255, description: 'sender address' }),
    to: Type.String({ format: 'email', maxLength: 255, description: 'recipient address' }),
  },
  { additionalProperties: false, 'x-error-prefix': 'Invalid notification channel' },
)

const TelegramChannelBody = Type.Object(
  {
    kind: Type.Literal('telegram'),
    name: Name,
    enabled: Enabled,
    events: Events,
    chatId: Type.String({ minLength: 1, maxLength: 64, pattern: '^(-?[0-9]+|@[A-Za-z0-9_]{5,32})$', description: 'chat id (a number) or @channelname' }),
    botToken: Secret('bot token from @BotFather'),
  },
  { additionalProperties: false, 'x-error-prefix': 'Invalid notification channel' },
)

const DiscordChannelBody = Type.Object(
  {
    kind: Type.Literal('discord'),
    name: Name,
    enabled: Enabled,
    events: Events,
    webhookUrl: Secret('Discord webhook URL (it carries the webhook token)'),
  },
  { additionalProperties: false, 'x-error-prefix': 'Invalid notification channel' },
)

const WebhookChannelBody = Type.Object(
  {
    kind: Type.Literal('webhook'),
    name: Name,
    enabled: Enabled,
    events: Events,
    url: Type.String({ format: 'uri', maxLength: 2_000, description: 'where the signed JSON is POSTed (https)' }),
    signingSecret: Secret('HMAC-SHA256 signing secret, 16 characters or more', 16),
  },
  { additionalProperties: false, 'x-error-prefix': 'Invalid notification channel' },
)

type AnyChannelBody = Static<typeof EmailChannelBody> | Static<typeof TelegramChannelBody> | Static<typeof DiscordChannelBody> | Static<typeof WebhookChannelBody>

/**
 * POST (create) and PUT (replace) body: a oneOf tagged by `kind`, so a wrong field is reported against the
 * channel's own shape. Secrets are required on create only (checked by the route).
 */
export const ChannelBody = Type.Unsafe<AnyChannelBody>({
  type: 'object',
  required: ['kind'],
  discriminator: { propertyName: 'kind' },
  oneOf: [EmailChannelBody, TelegramChannelBody, DiscordChannelBody, WebhookChannelBody],
  'x-error-prefix': 'Invalid notification channel',
})
export type ChannelBody = AnyChannelBody
export type ChannelKind = ChannelBody['kind']

export const ChannelParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'channel id' }) }, { additionalProperties: false })

/** A channel as any response shows it: its shown settings, never a secret. */
export const ChannelView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    kind: Type.Union([Type.Literal('email'), Type.Literal('telegram'), Type.Literal('discord'), Type.Literal('webhook')]),
    name: Type.String(),
    enabled: Type.Boolean(),
    events: Type.Array(NotificationEventKind),
    settings: Type.Record(Type.String(), Type.Union([Type.String(), Type.Integer(), Type.Boolean(), Type.Null()]), {
      description: 'the settings that are not secret (host, port, addresses, chat id, webhook URL)',
    }),
    secretSet: Type.Boolean({ description: 'whether a secret is stored (never shown)' }),
    lastSentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    lastFailedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    lastError: Type.Union([Type.String(), Type.Null()], { description: 'why the last failed send failed' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
)
export type ChannelView = Static<typeof ChannelView>

export const ChannelsResponse = Type.Object({ success: Type.Literal(true), channels: Type.Array(ChannelView) }, { additionalProperties: false })
export const ChannelResponse = Type.Object({ success: Type.Literal(true), channel: ChannelView }, { additionalProperties: false })
export const DeleteChannelResponse = Type.Object({ success: Type.Literal(true), deleted: Type.Boolean() }, { additionalProperties: false })
export const TestSendResponse = Type.Object(
  {
    success: Type.Literal(true),
    sent: Type.Boolean({ description: 'whether the channel took the test message' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'why not, as the channel answered' }),
  },
  { additionalProperties: false },
)

export const DeliveriesResponse = Type.Object(
  {
    success: Type.Literal(true),
    deliveries: Type.Array(
      Type.Object(
        {
          id: Type.Integer(),
          channelId: Type.String({ format: 'uuid' }),
          kind: NotificationEventKind,
          title: Type.String(),
          status: Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('failed')]),
          attempts: Type.Integer({ minimum: 0 }),
          lastError: Type.Union([Type.String(), Type.Null()]),
          occurredAt: Type.String({ format: 'date-time' }),
          sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
)
