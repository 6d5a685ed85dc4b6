import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody, redactSecretText } from '@signals/contracts'
import { beforeIdOf, nextCursorOf } from '@signals/http-kit'
import type { IntakeLogEntry } from '@signals/db'
import { listIntake } from '../repositories/intake.ts'
import { MyIntakePage, MyIntakeQuery, type MyIntakeEntryView } from '../schemas/intake.ts'

function myIntakeView(entry: IntakeLogEntry, withBody: boolean): MyIntakeEntryView {
  return {
    id: String(entry.id),
    receivedAt: entry.received_at.toISOString(),
    source: entry.source,
    outcome: entry.outcome,
    statusCode: entry.status_code,
    reason: entry.reason === null ? null : redactSecretText(entry.reason),
    alertId: entry.alert_id,
    kind: entry.kind,
    bodyTruncated: entry.body_truncated,
    // Ingest redacted it when it was logged; again here for entries logged before every secret name was.
    ...(withBody ? { body: redactSecretText(entry.raw_body) } : {}),
  }
}

/**
 * `GET /api/intake` (any signed-in, approved trader; issue 22): the webhooks whose payload named the caller
 * as user_id, newest first, with each outcome and the refusal's reason, so a trader can see why an alert
 * did nothing. Anyone may name anyone in a payload: the entries show what was refused in the caller's name,
 * never the sender's address.
 */
export const myIntakeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/intake',
    {
      schema: {
        tags: ['intake'],
        summary: "Webhooks that named the signed-in user, with each refusal's reason, newest first",
        querystring: MyIntakeQuery,
        response: { 200: MyIntakePage, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => {
      const { outcome, refused, kind, limit, before, raw } = request.query
      const rows = await listIntake(app.db, { outcome, refusedOnly: refused, kind, limit, beforeId: beforeIdOf(before), userId: request.identity.userId })
      return { success: true as const, entries: rows.map((row) => myIntakeView(row, raw)), nextCursor: nextCursorOf(rows, limit) }
    },
  )
}
