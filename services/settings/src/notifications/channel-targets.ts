import type { ChannelKind } from '../schemas/notification-channels.ts'
import type { ShownSettings } from './channel-fields.ts'

export interface TargetRules {
  /** Discord webhook URLs must start with this (https://discord.com/api/webhooks/; a local peer in tests). */
  discordWebhookPrefix: string
  /** Allow http:// webhook URLs (development and tests); https only otherwise. */
  allowHttpWebhooks: boolean
}

/**
 * Why the channel's destination is refused, or null. The platform posts to where the trader says, so the
 * URLs are held to their service: a Discord URL must be Discord's, a webhook https (docs/decisions/notifications.md).
 */
export function targetProblem(rules: TargetRules, kind: ChannelKind, settings: ShownSettings, secret: string | null): string | null {
  if (kind === 'discord' && secret !== null && !secret.startsWith(rules.discordWebhookPrefix)) {
    return `webhookUrl must start with ${rules.discordWebhookPrefix}`
  }
  if (kind === 'webhook') {
    const url = URL.parse(String(settings.url))
    if (url === null) return 'url is not a URL'
    if (url.protocol !== 'https:' && !(rules.allowHttpWebhooks && url.protocol === 'http:')) return 'url must be https'
    if (url.username || url.password) return 'url must not carry credentials (use the signing secret)'
  }
  if (kind === 'email' && settings.smtpUsername !== null && secret === null) return 'smtpPassword is required with smtpUsername'
  return null
}
