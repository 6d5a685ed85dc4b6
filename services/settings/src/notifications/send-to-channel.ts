import type { ChannelKind } from '../schemas/notification-channels.ts'
import type { ShownSettings } from './channel-fields.ts'
import { sendDiscord } from './senders/discord.ts'
import { sendEmail, type EmailSettings } from './senders/email.ts'
import { failed, type OutgoingMessage, type SendOutcome, type SenderEnvironment } from './senders/outgoing.ts'
import { sendSignedWebhook } from './senders/signed-webhook.ts'
import { sendTelegram } from './senders/telegram.ts'

export interface OpenChannel {
  kind: ChannelKind
  settings: ShownSettings
  secret: string | null
}

/** Sends one message on one channel, by its kind; never throws. */
export async function sendToChannel(env: SenderEnvironment, channel: OpenChannel, message: OutgoingMessage): Promise<SendOutcome> {
  const { settings, secret } = channel
  try {
    switch (channel.kind) {
      case 'email':
        return await sendEmail(env, settings as unknown as EmailSettings, secret, message)
      case 'telegram':
        return secret === null ? failed('no bot token stored') : await sendTelegram(env, String(settings.chatId), secret, message)
      case 'discord':
        return secret === null ? failed('no webhook URL stored') : await sendDiscord(env, secret, message)
      case 'webhook':
        return secret === null ? failed('no signing secret stored') : await sendSignedWebhook(env, String(settings.url), secret, message)
    }
  } catch {
    return failed('the message could not be sent')
  }
}
