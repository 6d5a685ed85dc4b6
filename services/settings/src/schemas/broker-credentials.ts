import Type, { type Static } from 'typebox'
import { FeedCommandOutcome } from './trading-settings.ts'

const Text = (description: string, maxLength = 255) => Type.String({ minLength: 1, maxLength, description })
const Secret = (description: string) => Type.String({ minLength: 1, maxLength: 512, description, writeOnly: true })

/**
 * PUT /api/broker-credentials (DESIGN decision 13). Tradovate's access-token request needs every field
 * but deviceId; the paper broker needs the account and a user name and password.
 */
export const BrokerCredentialsBody = Type.Object(
  {
    broker: Type.Union([Type.Literal('paper'), Type.Literal('tradovate')], { description: 'which broker the feed connects to' }),
    environment: Type.Union([Type.Literal('demo'), Type.Literal('live')], { description: 'broker environment' }),
    accountId: Text('broker account id (shown in the status; not a secret)'),
    username: Text("user name (Tradovate's `name`); stored sealed, shown masked"),
    password: Secret('password; stored sealed, never shown'),
    appId: Type.Optional(Text('application id registered with the broker', 255)),
    appVersion: Type.Optional(Text('application version', 64)),
    cid: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.String({ minLength: 1, maxLength: 512 })], {
        description: "API client id, a number as Tradovate's documents show it, or a string; stored sealed, never shown",
        writeOnly: true,
      }),
    ),
    sec: Type.Optional(Secret('API client secret; stored sealed, never shown')),
    deviceId: Type.Optional(Text('stable device id for the broker (optional)', 255)),
  },
  { additionalProperties: false, 'x-error-prefix': 'Invalid broker credentials' },
)
export type BrokerCredentialsBody = Static<typeof BrokerCredentialsBody>

/** Fields the brokers need beyond the shape above. */
export const REQUIRED_BY_BROKER: Record<BrokerCredentialsBody['broker'], readonly (keyof BrokerCredentialsBody)[]> = {
  tradovate: ['appId', 'appVersion', 'cid', 'sec'],
  paper: [],
}

/**
 * The sealed part (AES-256-GCM, bound to user, broker, environment and account by `credentialsContext`);
 * the broker connector opens it with the same cipher and binding.
 */
export interface SealedCredentialFields {
  username: string
  password: string
  appId: string | null
  appVersion: string | null
  cid: number | string | null
  sec: string | null
  deviceId: string | null
}

/** What any response may show about stored credentials: never a secret. */
export const CredentialsSummary = Type.Object(
  {
    broker: Type.Union([Type.Literal('paper'), Type.Literal('tradovate')]),
    environment: Type.Union([Type.Literal('demo'), Type.Literal('live')]),
    accountId: Type.String(),
    usernameMasked: Type.Union([Type.String(), Type.Null()], {
      description: 'first and last character of the user name; null when the stored row cannot be opened with the configured keys',
    }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
)
export type CredentialsSummary = Static<typeof CredentialsSummary>

export const CredentialsResponse = Type.Object({
  success: Type.Literal(true),
  credentials: Type.Union([CredentialsSummary, Type.Null()]),
})

/** A broker login tried with the stored credentials (issue 25, item 4). */
const CredentialsTest = Type.Object(
  {
    ok: Type.Boolean({ description: 'true when the broker accepted the login and opened the account' }),
    kind: Type.Union([Type.String(), Type.Null()], {
      description: 'why not: credentials_refused, account_not_found, rate_limited, captcha, unavailable, no_credentials, unreadable, no_answer; null when ok',
    }),
    detail: Type.String({ description: "the broker's words (or the account opened), for the trader" }),
    testedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
)

export const TestCredentialsResponse = Type.Object({ success: Type.Literal(true), test: CredentialsTest })

export const SaveCredentialsResponse = Type.Object({
  success: Type.Literal(true),
  credentials: CredentialsSummary,
  feedCommand: Type.Union([FeedCommandOutcome, Type.Null()], { description: 'restart, when live trading is on' }),
  test: CredentialsTest,
})

export const DeleteCredentialsResponse = Type.Object({
  success: Type.Literal(true),
  deleted: Type.Boolean({ description: 'false when there was nothing to delete' }),
  feedCommand: Type.Union([FeedCommandOutcome, Type.Null()], { description: 'stop, when live trading is on' }),
})
