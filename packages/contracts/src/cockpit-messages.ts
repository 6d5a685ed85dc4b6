import Type, { type Static } from 'typebox'
import { BrokerEnvironment, BrokerName } from './words.ts'

/**
 * Core request `connector.<instanceId>.kills`: the kill switch of one user, handed to the connector instance
 * holding the user's broker session (the kill switch's durable part is already written by the sender).
 */
export const KillSwitchRunRequestV1 = Type.Object(
  {
    version: Type.Literal(1),
    userId: Type.String({ minLength: 1, maxLength: 255 }),
  },
  { additionalProperties: false },
)
export type KillSwitchRunRequest = Static<typeof KillSwitchRunRequestV1>

/**
 * The reply: `done` every position was flattened and every working order cancelled at the broker;
 * `incomplete` the broker refused or did not answer part of it (`detail` says what); `no_session` the
 * instance holds the user but has no open broker session (connection down); `not_held` it does not hold the user.
 */
export const KillSwitchRunReplyV1 = Type.Object(
  {
    version: Type.Literal(1),
    outcome: Type.Union([Type.Literal('done'), Type.Literal('incomplete'), Type.Literal('no_session'), Type.Literal('not_held')]),
    detail: Type.String({ maxLength: 2000 }),
  },
  { additionalProperties: false },
)
export type KillSwitchRunReply = Static<typeof KillSwitchRunReplyV1>

const Base64 = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9+/]+={0,2}$' })

/**
 * A broker login not stored yet (`POST /api/accounts` with a new login, issue 22), sealed by the settings
 * service for the user and the account it names, exactly as it would be stored: the secret crosses the bus
 * sealed, and the connector opens it with its own keys.
 */
export const SealedLoginV1 = Type.Object(
  {
    broker: BrokerName,
    environment: BrokerEnvironment,
    /** The broker account id the secret is sealed for (its binding), and the account the session opens. */
    accountId: Type.String({ minLength: 1, maxLength: 255 }),
    keyId: Type.String({ minLength: 1, maxLength: 32 }),
    iv: Base64(24),
    tag: Base64(32),
    ciphertext: Base64(16_384),
  },
  { additionalProperties: false },
)
export type SealedLogin = Static<typeof SealedLoginV1>

/**
 * Core request `connector.credentials-test` (any connector instance answers): try the user's stored broker
 * login, or the sealed login given (one not stored yet).
 */
export const CredentialsTestRequestV1 = Type.Object(
  {
    version: Type.Literal(1),
    userId: Type.String({ minLength: 1, maxLength: 255 }),
    login: Type.Optional(SealedLoginV1),
  },
  { additionalProperties: false },
)
export type CredentialsTestRequest = Static<typeof CredentialsTestRequestV1>

/** The reply: whether the broker accepted the login, and its words (or the account it opened). */
export const CredentialsTestReplyV1 = Type.Object(
  {
    version: Type.Literal(1),
    ok: Type.Boolean(),
    /** credentials_refused, account_not_found, unavailable...; null when ok. */
    kind: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
    detail: Type.String({ maxLength: 1000 }),
  },
  { additionalProperties: false },
)
export type CredentialsTestReply = Static<typeof CredentialsTestReplyV1>

/** Any connector instance answers it (a queue group): a login test needs no particular session. */
export const CREDENTIALS_TEST_SUBJECT = 'connector.credentials-test'
