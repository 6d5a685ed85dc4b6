import type { ChannelBody, ChannelKind } from '../schemas/notification-channels.ts'

export type ShownSettings = Record<string, string | number | boolean | null>

/** Each kind's one secret field (write-only in the body). */
export const SECRET_FIELD = { email: 'smtpPassword', telegram: 'botToken', discord: 'webhookUrl', webhook: 'signingSecret' } as const satisfies Record<ChannelKind, string>

/** The body split into what is shown and the secret (undefined when the body leaves it out). */
export function splitChannelBody(body: ChannelBody): { settings: ShownSettings; secret: string | undefined } {
  switch (body.kind) {
    case 'email':
      return {
        settings: { smtpHost: body.smtpHost, smtpPort: body.smtpPort, smtpTls: body.smtpTls, smtpUsername: body.smtpUsername ?? null, from: body.from, to: body.to },
        secret: body.smtpPassword,
      }
    case 'telegram':
      return { settings: { chatId: body.chatId }, secret: body.botToken }
    case 'discord':
      return { settings: {}, secret: body.webhookUrl }
    case 'webhook':
      return { settings: { url: body.url }, secret: body.signingSecret }
  }
}
