import Type, { type Static } from 'typebox'
import { IntakeOutcome } from '@signals/contracts'
import { NextCursor, PageQuery } from '@signals/http-kit'

/**
 * Outcomes an operator may replay: the webhook was refused before anything reached the bus. Never 401 or
 * 403 (refused for its secret or its source address) nor 429 (refused before its secret was read): the
 * replay carries the real secret from the admin's address, so it would let a stranger's alert through
 * (issue 22). An entry must also have passed the secret check and kept its whole body (replay.ts).
 */
export const REPLAYABLE_OUTCOMES = ['invalid', 'missing_user_id', 'too_old', 'unavailable'] as const

export const IntakeQuery = Type.Object(
  {
    outcome: Type.Optional(IntakeOutcome),
    ...PageQuery,
    raw: Type.Boolean({ default: false, description: 'include each entry raw body (secret-named values redacted)' }),
  },
  { additionalProperties: false },
)
export type IntakeQuery = Static<typeof IntakeQuery>

export const IntakeEntryView = Type.Object({
  id: Type.String(),
  intakeId: Type.String(),
  receivedAt: Type.String({ format: 'date-time' }),
  source: Type.String({ description: 'where the alert text was: query, body, header or none' }),
  contentType: Type.Union([Type.String(), Type.Null()]),
  remoteAddress: Type.Union([Type.String(), Type.Null()]),
  outcome: Type.String(),
  statusCode: Type.Integer(),
  reason: Type.Union([Type.String(), Type.Null()]),
  alertId: Type.Union([Type.String(), Type.Null()]),
  kind: Type.Union([Type.String(), Type.Null()]),
  userId: Type.Union([Type.String(), Type.Null()], { description: 'the user the payload named, when it could be read' }),
  authenticated: Type.Boolean({ description: 'passed the webhook secret check (or ingest had none to check)' }),
  bodyTruncated: Type.Boolean({ description: 'rawBody is only the start of a refused request (INGEST_REFUSED_BODY_BYTES)' }),
  replayable: Type.Boolean({ description: 'an authenticated live webhook refused before reaching the bus, body kept whole: a replay cannot double an order nor let a stranger in' }),
  rawBody: Type.Optional(Type.String({ description: 'only with raw=true' })),
})
export type IntakeEntryView = Static<typeof IntakeEntryView>

export const IntakePage = Type.Object({
  success: Type.Literal(true),
  entries: Type.Array(IntakeEntryView),
  nextCursor: NextCursor,
})

export const IntakeIdParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: 'the entry id from the list' }) }, { additionalProperties: false })

export const ReplayResult = Type.Object({
  success: Type.Literal(true),
  replay: Type.Object({
    statusCode: Type.Integer({ description: "ingest's answer to the replayed webhook" }),
    accepted: Type.Boolean(),
    answer: Type.Unknown({ description: "ingest's response body" }),
  }),
})

/** `GET /api/intake`: a trader's own intake, the query. */
export const MyIntakeQuery = Type.Object(
  {
    outcome: Type.Optional(IntakeOutcome),
    refused: Type.Boolean({ default: false, description: 'only refused webhooks (every outcome but accepted and duplicate)' }),
    kind: Type.Optional(Type.Union([Type.Literal('entry'), Type.Literal('result'), Type.Literal('test')], { description: "only webhooks ingest read as this kind (result: exits and results, the home page's Alerts card)" })),
    ...PageQuery,
    raw: Type.Boolean({ default: false, description: 'include each entry body (secret-named fields redacted)' }),
  },
  { additionalProperties: false },
)

/** One webhook that named the caller: what happened to it and why; never who sent it from where. */
export const MyIntakeEntryView = Type.Object({
  id: Type.String(),
  receivedAt: Type.String({ format: 'date-time' }),
  source: Type.String({ description: 'where the alert text was: query, body, header or none' }),
  outcome: Type.String({ description: 'accepted, duplicate, or why it was refused (invalid, unauthorized, too_old...)' }),
  statusCode: Type.Integer(),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'the refusal in words, as the sender was answered' }),
  alertId: Type.Union([Type.String(), Type.Null()]),
  kind: Type.Union([Type.String(), Type.Null()]),
  bodyTruncated: Type.Boolean({ description: 'body is only the start of a refused request' }),
  body: Type.Optional(Type.String({ description: 'only with raw=true; secret-named fields redacted' })),
})
export type MyIntakeEntryView = Static<typeof MyIntakeEntryView>

export const MyIntakePage = Type.Object({ success: Type.Literal(true), entries: Type.Array(MyIntakeEntryView), nextCursor: NextCursor })
