import Type, { type Static } from 'typebox'

/** A signal source's id (a Postgres uuid, lower case). */
export const SignalSourceId = Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' })

/**
 * The SIGNAL_SOURCES bucket's entry of one live source, keyed by the SHA-256 (hex) of its URL token
 * (issue 22, docs/decisions/signal-sources.md). Written by the settings service's relay from Postgres, read
 * by ingest, which has no database: no entry means the token is unknown, rotated away or revoked.
 */
export const SignalSourceKeyV1 = Type.Object(
  {
    version: Type.Literal(1),
    sourceId: SignalSourceId,
    /** The trader who owns it; null for an operator source. */
    ownerUserId: Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()]),
  },
  { additionalProperties: false, $id: 'SignalSourceKeyV1' },
)
export type SignalSourceKey = Static<typeof SignalSourceKeyV1>
