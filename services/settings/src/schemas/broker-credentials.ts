import Type, { type Static, type TSchema } from 'typebox'
import { BROKERS, BROKER_NAMES, BrokerEnvironment, BrokerInfo, BrokerName, LiteralUnion, type BrokerCredentials } from '@signals/contracts'
import { FeedCommandOutcome } from './trading-settings.ts'

const Text = (description: string, maxLength = 255) => Type.String({ minLength: 1, maxLength, description })

/**
 * Every broker's credentials fields (a field two brokers share has one schema: test/brokers in
 * packages/contracts), each optional here: the chosen broker's own schema from the registry decides
 * which it requires and which it takes (routes/broker-credentials.ts), so adding a broker changes nothing here.
 */
export const credentialsFields: Record<string, TSchema> = {}
for (const name of BROKER_NAMES) {
  for (const [field, schema] of Object.entries(BROKERS[name].credentials.properties as Record<string, TSchema>)) {
    credentialsFields[field] ??= Type.Optional(schema)
  }
}

/**
 * PUT /api/broker-credentials (DESIGN decision 13, one body per broker): `broker`, `environment` and
 * `accountId` (stored in the clear), and the broker's credentials fields (sealed). Tradovate's
 * access-token request needs every field but deviceId; the paper broker needs a user name and password.
 */
export const BrokerCredentialsBody = Type.Object(
  {
    broker: LiteralUnion(BROKER_NAMES, { description: 'which broker the feed connects to (`GET /api/brokers` lists them with their fields)' }),
    environment: Type.Union([Type.Literal('demo'), Type.Literal('live')], { description: 'broker environment' }),
    accountId: Text('broker account id (shown in the status; not a secret)'),
    ...credentialsFields,
  },
  { additionalProperties: false, 'x-error-prefix': 'Invalid broker credentials' },
)

/** The body as a typed client sends it: one broker's fields beside the common three. */
export type BrokerCredentialsBody = {
  [B in BrokerName]: { broker: B; environment: BrokerEnvironment; accountId: string } & BrokerCredentials<B>
}[BrokerName]

/** What any response may show about stored credentials: never a secret. */
export const CredentialsSummary = Type.Object(
  {
    broker: BrokerName,
    environment: BrokerEnvironment,
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

/** GET /api/brokers: each broker's credentials form and what it can do, in the registry's order. */
export const BrokersResponse = Type.Object({ success: Type.Literal(true), brokers: Type.Array(BrokerInfo) })
