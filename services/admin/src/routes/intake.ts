import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody, redactSecretText } from '@signals/contracts'
import { beforeIdOf, conflict, linkTrace, nextCursorOf, notFound, traceHeadersOf } from '@signals/http-kit'
import type { IntakeLogEntry } from '@signals/db'
import { findIntake, listIntake } from '../repositories/intake.ts'
import { recordAudit } from '../repositories/audit.ts'
import { sendToIngest, type IngestTarget } from '../replay/send-to-ingest.ts'
import type { IntakeEntryView } from '../schemas/intake.ts'
import { IntakeIdParams, IntakePage, IntakeQuery, ReplayResult } from '../schemas/intake.ts'
import { whyNotReplayable } from '../replay/replayable.ts'

function intakeView(entry: IntakeLogEntry, withRaw: boolean): IntakeEntryView {
  return {
    id: String(entry.id),
    intakeId: entry.intake_id,
    receivedAt: entry.received_at.toISOString(),
    source: entry.source,
    contentType: entry.content_type,
    remoteAddress: entry.remote_address,
    outcome: entry.outcome,
    statusCode: entry.status_code,
    // Ingest redacted both when it was logged; again here for entries logged before every secret name was.
    reason: entry.reason === null ? null : redactSecretText(entry.reason),
    alertId: entry.alert_id,
    kind: entry.kind,
    userId: entry.user_id,
    authenticated: entry.authenticated,
    bodyTruncated: entry.body_truncated,
    replayable: whyNotReplayable(entry) === null,
    ...(withRaw ? { rawBody: redactSecretText(entry.raw_body) } : {}),
  }
}

/**
 * The intake log for operators (`GET /api/admin/intake`) and the replay of a refused webhook
 * (`POST /api/admin/intake/:id/replay`, audited). Only authenticated refusals are replayed: they never
 * reached the bus, so their alert id is not in the duplicate window and a replay is a first delivery;
 * anything else is refused with 409 saying why (replay/replayable.ts).
 */
export const intakeRoutes: FastifyPluginAsyncTypebox<{ ingest: IngestTarget }> = async (app, options) => {
  app.get(
    '/api/admin/intake',
    {
      schema: {
        tags: ['admin'],
        summary: 'The latest webhooks with their outcome, newest first (raw body on demand)',
        querystring: IntakeQuery,
        response: { 200: IntakePage, 400: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const { outcome, limit, before, raw } = request.query
      const rows = await listIntake(app.db, { outcome, limit, beforeId: beforeIdOf(before) })
      return { success: true as const, entries: rows.map((row) => intakeView(row, raw)), nextCursor: nextCursorOf(rows, limit) }
    },
  )

  app.post(
    '/api/admin/intake/:id/replay',
    {
      schema: {
        tags: ['admin'],
        summary: 'Send a refused webhook to ingest again, as its sender did (audited)',
        params: IntakeIdParams,
        response: { 200: ReplayResult, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const entry = await findIntake(app.db, Number(request.params.id))
      if (entry === undefined) throw notFound(`No intake entry ${request.params.id}`)
      const refusal = whyNotReplayable(entry)
      if (refusal !== null) throw conflict(refusal)
      // The replay's trace is the admin's request; the refused webhook's own trace is linked to it.
      linkTrace(request, entry.traceparent, 'replayed webhook')
      const { statusCode, answer } = await sendToIngest(options.ingest, entry, traceHeadersOf(request))
      await recordAudit(app.db, { actorUserId: request.identity.userId, action: 'replay', target: entry.intake_id, reason: `ingest answered ${statusCode}` })
      request.log.info({ intakeId: entry.intake_id, statusCode }, 'intake entry replayed')
      return { success: true as const, replay: { statusCode, accepted: statusCode < 300, answer } }
    },
  )
}
