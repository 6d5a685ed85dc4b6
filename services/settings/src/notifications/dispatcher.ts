import type { FastifyBaseLogger } from 'fastify'
import type { CredentialsCipher } from '@signals/secrets'
import type { Database, Kysely, NotificationDeliveryRow } from '@signals/db'
import { findChannelById } from '../repositories/notification-channels.ts'
import { claimDueDeliveries, markAttemptFailed, markDelivered } from '../repositories/notification-deliveries.ts'
import { recordChannelOutcome } from '../repositories/notification-channels.ts'
import { openChannelSecret } from './channel-secret.ts'
import { sendToChannel } from './send-to-channel.ts'
import type { ShownSettings } from './channel-fields.ts'
import type { SendOutcome, SenderEnvironment } from './senders/outgoing.ts'

export interface DispatchOptions {
  sender: SenderEnvironment
  /** Attempts before a delivery is given up (marked failed). */
  maxAttempts: number
  /** Wait after the first failure; doubled after each next one, at most an hour. */
  retryBaseMs: number
  /** Deliveries sent at once per pass. */
  batch: number
}

const HOUR = 3_600_000

/** The wait before attempt `attempts + 1`, or null once `attempts` reached the maximum. */
export function retryDelay(attempts: number, options: Pick<DispatchOptions, 'maxAttempts' | 'retryBaseMs'>): number | null {
  if (attempts >= options.maxAttempts) return null
  return Math.min(HOUR, options.retryBaseMs * 2 ** (attempts - 1))
}

/**
 * One pass: claims the due deliveries and sends them at once (each on its own, so one slow channel costs
 * the others nothing but its timeout); records each outcome on the delivery and on the channel.
 * Returns how many were attempted.
 */
export async function dispatchDue(db: Kysely<Database>, cipher: CredentialsCipher, logger: FastifyBaseLogger, options: DispatchOptions): Promise<number> {
  const due = await claimDueDeliveries(db, options.batch, options.sender.timeoutMs * 3)
  await Promise.all(due.map((delivery) => attempt(db, cipher, logger, options, delivery)))
  return due.length
}

async function attempt(db: Kysely<Database>, cipher: CredentialsCipher, logger: FastifyBaseLogger, options: DispatchOptions, delivery: NotificationDeliveryRow) {
  const outcome = await sendDelivery(db, cipher, options.sender, delivery)
  if (outcome.ok) {
    await markDelivered(db, delivery.id)
    await recordChannelOutcome(db, delivery.channel_id, null)
    return
  }
  const delay = retryDelay(delivery.attempts, options)
  await markAttemptFailed(db, delivery.id, outcome.error, delay)
  await recordChannelOutcome(db, delivery.channel_id, outcome.error)
  logger.warn({ deliveryId: delivery.id, channelId: delivery.channel_id, attempts: delivery.attempts, retryInMs: delay, error: outcome.error }, 'notification not sent')
}

async function sendDelivery(db: Kysely<Database>, cipher: CredentialsCipher, sender: SenderEnvironment, delivery: NotificationDeliveryRow): Promise<SendOutcome> {
  const channel = await findChannelById(db, delivery.channel_id)
  if (!channel) return { ok: false, error: 'the channel was deleted' }
  let secret: string | null
  try {
    secret = openChannelSecret(cipher, channel)
  } catch {
    return { ok: false, error: 'the channel secret cannot be opened with the configured keys; save the channel again' }
  }
  const message = { eventId: delivery.event_id, kind: delivery.kind, title: delivery.title, text: delivery.text, occurredAt: delivery.occurred_at.toISOString() }
  return sendToChannel(sender, { kind: channel.kind, settings: channel.settings as ShownSettings, secret }, message)
}
