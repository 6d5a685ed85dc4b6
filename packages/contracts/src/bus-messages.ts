import Type, { type Static } from 'typebox'
import { NormalizedAlertV1 } from './alert.ts'
import { LiteralUnion } from './literal-union.ts'

/** alerts.entry, alerts.result and alerts.test all carry a normalized alert. */
export const AlertMessageV1 = NormalizedAlertV1
export type AlertMessage = Static<typeof AlertMessageV1>

export const IntakeOutcome = LiteralUnion(
  [
    'accepted',
    'duplicate',
    'invalid',
    'missing_user_id',
    'unauthorized',
    'forbidden',
    'too_large',
    'too_old',
    'rate_limited',
    'unavailable',
  ] as const,
)
export type IntakeOutcome = Static<typeof IntakeOutcome>

/** One webhook request, accepted or refused, as the intake_log table keeps it. */
export const IntakeLogEntryV1 = Type.Object(
  {
    version: Type.Literal(1),
    intakeId: Type.String({ minLength: 1, maxLength: 64 }),
    receivedAt: Type.String({ format: 'date-time' }),
    source: Type.Union([Type.Literal('query'), Type.Literal('body'), Type.Literal('header'), Type.Literal('none')]),
    contentType: Type.Union([Type.String({ maxLength: 255 }), Type.Null()]),
    remoteAddress: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
    rawBody: Type.String(),
    outcome: IntakeOutcome,
    statusCode: Type.Integer({ minimum: 100, maximum: 599 }),
    reason: Type.Union([Type.String(), Type.Null()]),
    alertId: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
    kind: Type.Union([Type.Literal('entry'), Type.Literal('result'), Type.Literal('test'), Type.Null()]),
    // Optional (issue 22), so entries from an ingest that does not send them still pass; absent means
    // unknown: no user, not authenticated, not truncated.
    /** The user the payload named, when it could be read. */
    userId: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
    /** The request passed the webhook secret check, or ingest had none to check. */
    authenticated: Type.Optional(Type.Boolean()),
    /** rawBody is the start of a longer body (a refused request keeps a bounded part). */
    bodyTruncated: Type.Optional(Type.Boolean()),
    /** The webhook request span's W3C traceparent, while tracing was on (issue 21): a replay links its trace. */
    traceparent: Type.Optional(Type.String({ pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' })),
  },
  { additionalProperties: false },
)
export type IntakeLogEntry = Static<typeof IntakeLogEntryV1>

/** Most entries one intake.log message carries (the consumer writes them with one statement). */
export const INTAKE_LOG_BATCH_MAX_ENTRIES = 1000

/**
 * intake.log: the entries one ingest instance recorded over a few milliseconds, in one message (one bus
 * message per webhook cost ingest as much CPU as the alert itself). `batchId` is the bus message id, so a
 * resent batch is dropped; the consumer writes one intake_log row per entry, keyed by its intake id.
 */
export const IntakeLogBatchV1 = Type.Object(
  {
    version: Type.Literal(1),
    batchId: Type.String({ minLength: 1, maxLength: 64 }),
    entries: Type.Array(IntakeLogEntryV1, { minItems: 1, maxItems: INTAKE_LOG_BATCH_MAX_ENTRIES }),
  },
  { additionalProperties: false },
)
export type IntakeLogBatch = Static<typeof IntakeLogBatchV1>

/** feeds.start / feeds.stop: the settings service asks the broker connector to open or close a user's feed. */
export const FeedCommandV1 = Type.Object(
  {
    version: Type.Literal(1),
    /** Unique per change; also the bus message id. */
    commandId: Type.String({ minLength: 1, maxLength: 64 }),
    userId: Type.String({ minLength: 1, maxLength: 255 }),
    action: Type.Union([Type.Literal('start'), Type.Literal('stop'), Type.Literal('restart')]),
    reason: Type.String({ maxLength: 255 }),
    requestedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
)
export type FeedCommand = Static<typeof FeedCommandV1>

/** dlq.<subject>: a message that could never be processed, with why. */
export const DeadLetterV1 = Type.Object(
  {
    version: Type.Literal(1),
    subject: Type.String(),
    stream: Type.String(),
    consumer: Type.String(),
    deliveryCount: Type.Integer({ minimum: 0 }),
    reason: Type.String(),
    failedAt: Type.String({ format: 'date-time' }),
    /** The original body, as text (it may not have been valid JSON). */
    body: Type.String(),
    messageId: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
)
export type DeadLetter = Static<typeof DeadLetterV1>

/**
 * Value in the `FEED_STATUS` key-value bucket (key: the user id, base64url-encoded): the broker
 * connector writes it as a user's real-time feed changes state; the settings service reads it for
 * live-trading-status.
 */
export const FeedStatusV1 = Type.Object(
  {
    version: Type.Literal(1),
    userId: Type.String({ minLength: 1, maxLength: 255 }),
    state: Type.Union([
      Type.Literal('connecting'),
      Type.Literal('connected'),
      Type.Literal('stopped'),
      Type.Literal('error'),
    ]),
    detail: Type.Union([Type.String({ maxLength: 500 }), Type.Null()]),
    updatedAt: Type.String({ format: 'date-time' }),
    /** When the broker last sent anything on the user's socket (heartbeats included); refreshed while connected. */
    lastHeardAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    /** The connector instance holding the feed. */
    instanceId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
)
export type FeedStatus = Static<typeof FeedStatusV1>

/**
 * Value in the `FEED_OWNERS` bucket: key `shard.<n>` is the lease of one shard of users (held by one
 * connector instance, renewed with compare-and-set), key `instance.<id>` an instance's presence. Both
 * expire with the bucket's TTL unless renewed.
 */
export const FeedLeaseV1 = Type.Object(
  {
    version: Type.Literal(1),
    instanceId: Type.String({ minLength: 1, maxLength: 64 }),
    renewedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
)
export type FeedLease = Static<typeof FeedLeaseV1>

/** Core request `connector.<instanceId>.entries`: records of users whose feeds the addressed instance holds. */
export const EntrySettleRequestV1 = Type.Object(
  {
    version: Type.Literal(1),
    records: Type.Array(Type.Object({ id: Type.Integer({ minimum: 1 }), userId: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false }), { minItems: 1, maxItems: 10_000 }),
    /**
     * Ignored: sent by instances of the previous version, whose delivery count decided whether records
     * still waited. Now the record's age decides (docs/decisions/consumers.md); kept optional so a request
     * from either version validates during a rolling deploy.
     */
    lastAttempt: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type EntrySettleRequest = Static<typeof EntrySettleRequestV1>

/**
 * The reply: `settled` the records were handled by the owner (placed, decided, or left for its reconcile);
 * `retry` the message should come back (no session yet, or the owner no longer holds a user).
 */
export const EntrySettleReplyV1 = Type.Object(
  {
    version: Type.Literal(1),
    outcomes: Type.Array(Type.Union([Type.Literal('settled'), Type.Literal('retry'), Type.Literal('waiting')]), { maxItems: 10_000 }),
  },
  { additionalProperties: false },
)
export type EntrySettleReply = Static<typeof EntrySettleReplyV1>

/**
 * Core request `connector.<instanceId>.flattens`: users whose pending flattens (`flatten_requests`) the
 * addressed instance, which holds their feeds, should carry out now with their sessions.
 */
export const FlattenRunRequestV1 = Type.Object(
  {
    version: Type.Literal(1),
    userIds: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { minItems: 1, maxItems: 10_000 }),
  },
  { additionalProperties: false },
)
export type FlattenRunRequest = Static<typeof FlattenRunRequestV1>

/**
 * The reply, one outcome per user: `done` every pending flatten of the user was sent; `waiting` some wait
 * (no session now, or the broker's wait or refusal: the reason is on the request and the trade);
 * `not_held` the instance no longer holds the user (the next holder runs them when its session opens).
 */
export const FlattenRunReplyV1 = Type.Object(
  {
    version: Type.Literal(1),
    outcomes: Type.Array(Type.Union([Type.Literal('done'), Type.Literal('waiting'), Type.Literal('not_held')]), { maxItems: 10_000 }),
  },
  { additionalProperties: false },
)
export type FlattenRunReply = Static<typeof FlattenRunReplyV1>

/** Core request `connector.<instanceId>.feeds`: a feed command handed to the instance holding the user's shard. */
export const FeedCommandReplyV1 = Type.Object(
  { version: Type.Literal(1), done: Type.Boolean({ description: 'false: the addressed instance does not hold the user' }) },
  { additionalProperties: false },
)
export type FeedCommandReply = Static<typeof FeedCommandReplyV1>
