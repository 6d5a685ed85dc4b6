import type { AlertKind, IntakeLogEntry, IntakeOutcome } from '@signals/contracts'
import type { SecretRedactor } from '../webhook-secret.ts'
import type { SourceText } from './source.ts'

export type { IntakeOutcome } from '@signals/contracts'

/** An intake-log entry as ingest writes it (IntakeLogEntryV1 with the outcome typed). */
export type IntakeEntry = Omit<IntakeLogEntry, 'outcome'> & { outcome: IntakeOutcome }

/** What one webhook request has shown so far; the intake-log entry is built from it after the answer. */
interface IntakeState {
  receivedAt: string
  sourceText?: SourceText
  outcome?: IntakeOutcome
  reason?: string
  alertId?: string
  kind?: AlertKind
  /** The user the payload named, once parsed. */
  userId?: string
  /** Passed the webhook secret check, or there is none to pass. */
  authenticated: boolean
  redactor: SecretRedactor
}

declare module 'fastify' {
  interface FastifyRequest {
    intake: IntakeState
  }
}

/** The outcome of an answer that no step named (Fastify's own 413, a bug's 500). */
export function outcomeOfStatus(statusCode: number): IntakeOutcome {
  if (statusCode < 300) return 'accepted'
  if (statusCode === 401) return 'unauthorized'
  if (statusCode === 403) return 'forbidden'
  if (statusCode === 413) return 'too_large'
  if (statusCode === 429) return 'rate_limited'
  if (statusCode >= 500) return 'unavailable'
  return 'invalid'
}
