import { createHmac } from 'node:crypto'
import { postJson, type OutgoingMessage, type SendOutcome, type SenderEnvironment } from './outgoing.ts'

export const TIMESTAMP_HEADER = 'x-signals-timestamp'
export const SIGNATURE_HEADER = 'x-signals-signature'

/**
 * `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">` under the channel's signing secret. The timestamp
 * (Unix seconds, also sent in its header) is signed with the body, so a receiver that refuses old
 * timestamps refuses a replayed request (docs/decisions/notifications.md).
 */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}

/** POSTs the event as JSON, signed; any 2xx is taken. */
export function sendSignedWebhook(env: SenderEnvironment, url: string, signingSecret: string, message: OutgoingMessage, now = new Date()): Promise<SendOutcome> {
  const body = JSON.stringify({ eventId: message.eventId, kind: message.kind, title: message.title, text: message.text, occurredAt: message.occurredAt })
  const timestamp = String(Math.floor(now.getTime() / 1000))
  const headers = { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: webhookSignature(signingSecret, timestamp, body) }
  return postJson('The webhook', url, body, headers, env.timeoutMs, (status, text) => (status >= 200 && status < 300 ? null : text.slice(0, 200) || 'refused'))
}
