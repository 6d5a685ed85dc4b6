import { randomUUID } from 'node:crypto'
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Counter } from 'prom-client'
import { IntakeLog } from '../intake/intake-log.ts'
import { outcomeOfStatus, type IntakeOutcome } from '../intake/intake-state.ts'
import { nowIso } from '../intake/received-at.ts'
import { sourceTextOf } from '../intake/source.ts'
import { bodyWithin } from '../intake/body-within.ts'
import { userNamedUnread } from '../intake/user-named-unread.ts'
import { traceparentOfRequest } from '@signals/http-kit'
import { Refusal } from '../refusal.ts'
import type { SecretRedactor } from '../webhook-secret.ts'

export interface IntakeLogPluginOptions {
  /** Redacts the configured webhook secret until the request shows what it sent. */
  redactor: SecretRedactor
  /** INGEST_REFUSED_BODY_BYTES: how much of a refused request's body is kept. */
  refusedBodyBytes: number
}

/** Outcomes whose body is kept whole: what was traded on, or a resend of it. */
const KEPT_WHOLE = new Set<IntakeOutcome>(['accepted', 'duplicate'])
/** Refusals answered before the route read the payload: the user it names is looked for in the text. */
const REFUSED_UNREAD = new Set<IntakeOutcome>(['rate_limited', 'forbidden'])

/**
 * One intake-log entry per webhook request, answered however: `request.intake` is filled as the request
 * goes, and the entry is recorded after the answer. Registered in the webhook scope only (health and
 * metrics requests leave no entry); the log is flushed when the service closes.
 */
export const intakeLogPlugin = fp(
  async (app: FastifyInstance, options: IntakeLogPluginOptions) => {
    const intakeLog = new IntakeLog(app.bus, app.log, app.metrics)
    app.addHook('onClose', () => intakeLog.close())
    const webhooks = new Counter({
      name: 'ingest_webhooks_total',
      help: 'webhooks answered, by intake outcome',
      labelNames: ['outcome'] as const,
      registers: [app.metrics],
    })
    const webhooksByOutcome: Partial<Record<IntakeOutcome, ReturnType<typeof webhooks.labels>>> = {}

    app.decorateRequest('intake', null as never)
    app.addHook('onRequest', (request, _reply, done) => {
      // Every field present from the start: one object shape for every request.
      request.intake = { receivedAt: nowIso(), redactor: options.redactor, sourceText: undefined, outcome: undefined, reason: undefined, alertId: undefined, kind: undefined, userId: undefined, authenticated: false }
      done()
    })
    app.addHook('onError', async (request, _reply, error) => {
      if (error instanceof Refusal) request.intake.outcome = error.outcome
      request.intake.reason = error.message
    })
    app.addHook('onResponse', (request, reply, done) => {
      try {
        const intake = request.intake
        const { source, text } = sourceTextOf(request)
        const outcome = intake.outcome ?? outcomeOfStatus(reply.statusCode)
        webhooksByOutcome[outcome] ??= webhooks.labels({ outcome })
        webhooksByOutcome[outcome].inc()
        // A refusal is metadata: its body is cut (after redaction, which needs the whole text).
        const traceparent = traceparentOfRequest(request)
        const body = bodyWithin(intake.redactor.text(text), KEPT_WHOLE.has(outcome) ? Infinity : options.refusedBodyBytes)
        intakeLog.record({
          version: 1,
          intakeId: randomUUID(),
          receivedAt: intake.receivedAt,
          source,
          contentType: request.originalContentType?.slice(0, 255) ?? null,
          remoteAddress: request.clientAddress.slice(0, 64),
          rawBody: body.text,
          outcome,
          statusCode: reply.statusCode,
          // A refusal may quote what was sent (an action word, a placeholder): redacted like the body.
          reason: intake.reason === undefined ? null : intake.redactor.text(intake.reason),
          alertId: intake.alertId ?? null,
          kind: intake.kind ?? null,
          userId: intake.userId ?? (REFUSED_UNREAD.has(outcome) ? userNamedUnread(text, request.query)?.slice(0, 255) : undefined) ?? null,
          authenticated: intake.authenticated,
          bodyTruncated: body.truncated,
          // Only while tracing is on: a replay of this request links its trace.
          ...(traceparent === undefined ? {} : { traceparent }),
        })
      } finally {
        done()
      }
    })
  },
  { name: 'ingest-intake-log', dependencies: ['bus', 'metrics', 'ingest-client-address'] },
)
