import Type from 'typebox'
import { ConfigError, Env, type Static } from '@signals/config'
import { CredentialsCipher, parseKey } from '@signals/secrets'

/** Everything the settings service reads from its environment. */
export const ConfigSchema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  LOG_LEVEL: Env.LOG_LEVEL,
  /** Its own listen address only: HOST=0.0.0.0 meant for the gateway must not expose it (issue 15). */
  SETTINGS_HOST: Env.SETTINGS_HOST,
  SETTINGS_PORT: Env.SETTINGS_PORT,
  DATABASE_URL: Env.DATABASE_URL,
  NATS_URL: Env.NATS_URL,
  NATS_USER: Env.NATS_USER,
  NATS_PASSWORD: Env.NATS_PASSWORD,
  NATS_TOKEN: Env.NATS_TOKEN,
  BUS_NAMESPACE: Env.BUS_NAMESPACE,
  BUS_REPLICAS: Env.BUS_REPLICAS,
  /** The gateway's external URL: a signal source's webhook URL is shown under it. */
  PUBLIC_URL: Env.PUBLIC_URL,
  INTERNAL_AUTH_SECRET: Env.INTERNAL_AUTH_SECRET,
  CREDENTIALS_KEY: Env.CREDENTIALS_KEY,
  CREDENTIALS_KEY_ID: Env.CREDENTIALS_KEY_ID,
  CREDENTIALS_PREVIOUS_KEYS: Env.CREDENTIALS_PREVIOUS_KEYS,
  /** How often the relay looks for feed commands the request path could not publish (settings only). */
  FEED_RELAY_INTERVAL_MS: Type.Integer({ minimum: 50, maximum: 600_000, default: 2_000, description: 'feed command relay period' }),
  /** How long a request waits for JetStream to take a feed command before leaving it to the relay. */
  FEED_PUBLISH_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 30_000, default: 1_500, description: 'feed command publish timeout' }),
  /**
   * The live-trading status turns red when the user's feed has been down (not connected, or the broker
   * not heard from) longer than this. Keep it above the connector's worst take-over (about 15 s) and its
   * FEED_STATUS_REFRESH_MS, so a feed moving between instances stays green.
   */
  FEED_DOWN_GRACE_MS: Type.Integer({ minimum: 1_000, maximum: 3_600_000, default: 30_000, description: 'feed down time before the status is red' }),
  /** How long a credentials test (a broker login by the connector) may take before the trader is told it did not answer. */
  CREDENTIALS_TEST_TIMEOUT_MS: Type.Integer({ minimum: 500, maximum: 120_000, default: 20_000, description: 'broker login test timeout' }),
  /** Notifications (docs/decisions/notifications.md). */
  NOTIFY_TELEGRAM_API_URL: Type.String({ format: 'uri', default: 'https://api.telegram.org', description: 'Telegram Bot API base URL' }),
  NOTIFY_DISCORD_WEBHOOK_PREFIX: Type.String({ minLength: 8, default: 'https://discord.com/api/webhooks/', description: 'what a Discord webhook URL must start with' }),
  NOTIFY_ALLOW_HTTP_WEBHOOKS: Type.Boolean({ default: false, description: 'accept http:// webhook URLs (development only)' }),
  NOTIFY_SEND_TIMEOUT_MS: Type.Integer({ minimum: 500, maximum: 60_000, default: 10_000, description: 'longest one notification send may take' }),
  NOTIFY_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 20, default: 8, description: 'attempts before a notification is given up' }),
  NOTIFY_RETRY_BASE_MS: Type.Integer({ minimum: 10, maximum: 3_600_000, default: 15_000, description: 'wait after a failed send, doubled each time (at most an hour)' }),
  NOTIFY_RELAY_INTERVAL_MS: Type.Integer({ minimum: 50, maximum: 60_000, default: 1_000, description: 'notification event relay period' }),
  NOTIFY_DISPATCH_INTERVAL_MS: Type.Integer({ minimum: 50, maximum: 60_000, default: 1_000, description: 'notification dispatcher period' }),
})

export type Config = Static<typeof ConfigSchema>

/**
 * The credentials cipher, or a ConfigError naming the variable at fault (a key that is not 32 bytes of
 * base64, a previous-keys list not written `id:base64,...`). The key itself never appears in the message.
 */
export function credentialsCipherFrom(config: Config): CredentialsCipher {
  try {
    parseKey(config.CREDENTIALS_KEY)
  } catch {
    throw new ConfigError([{ variable: 'CREDENTIALS_KEY', problem: '(hidden) is not valid: expected 32 bytes, base64-encoded' }])
  }
  try {
    return CredentialsCipher.fromConfig(config.CREDENTIALS_KEY_ID, config.CREDENTIALS_KEY, config.CREDENTIALS_PREVIOUS_KEYS)
  } catch {
    throw new ConfigError([{ variable: 'CREDENTIALS_PREVIOUS_KEYS', problem: '(hidden) is not valid: expected id:base64,id:base64 with 32-byte keys' }])
  }
}
