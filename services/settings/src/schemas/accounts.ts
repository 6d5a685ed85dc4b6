import Type, { type Static } from 'typebox'
import { BROKER_NAMES, BrokerEnvironment, BrokerName, LiteralUnion } from '@signals/contracts'
import { credentialsFields } from './broker-credentials.ts'
import { FeedCommandOutcome } from './trading-settings.ts'
import { BrokerConnection, Indicator } from './live-trading-status.ts'

// Several broker accounts per trader (issue 22 items 1 and 2, docs/decisions/accounts.md).
const prefix = { 'x-error-prefix': 'Invalid account' }
const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
const Uuid = Type.String({ pattern: UUID_PATTERN })
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'a name you recognise (the firm, the evaluation)' })

export const AccountParams = Type.Object({ id: Uuid }, { ...prefix, additionalProperties: false })

/** A new broker login: the broker, its environment and the broker's credentials fields (GET /api/brokers). */
const NewLogin = Type.Object(
  {
    broker: LiteralUnion(BROKER_NAMES, { description: 'which broker (`GET /api/brokers` lists them with their fields)' }),
    environment: Type.Union([Type.Literal('demo'), Type.Literal('live')]),
    ...credentialsFields,
  },
  { additionalProperties: false, description: 'a new broker login, sealed as the broker credentials are' },
)

export const NewAccountBody = Type.Object(
  {
    name: Name,
    brokerAccountId: Type.String({ minLength: 1, maxLength: 255, description: 'the broker account id under the login (not a secret)' }),
    loginId: Type.Optional(Type.String({ pattern: UUID_PATTERN, description: 'one of your logins (listed with its accounts): one session serves all its accounts' })),
    login: Type.Optional(NewLogin),
  },
  { ...prefix, additionalProperties: false, description: 'exactly one of `loginId` and `login`' },
)
export type NewAccountBody = Static<typeof NewAccountBody>

export const AccountChangeBody = Type.Object(
  {
    name: Type.Optional(Name),
    liveTrading: Type.Optional(Type.Boolean({ description: 'only the primary account can go live for now' })),
    autoPlaceOrders: Type.Optional(Type.Boolean()),
  },
  { ...prefix, additionalProperties: false, minProperties: 1 },
)
export type AccountChangeBody = Static<typeof AccountChangeBody>

export const AccountView = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    isPrimary: Type.Boolean({ description: "the account the spec's single-account routes address" }),
    loginId: Type.Union([Uuid, Type.Null()], { description: 'null while the primary has no broker credentials' }),
    broker: Type.Union([BrokerName, Type.Null()]),
    environment: Type.Union([BrokerEnvironment, Type.Null()]),
    brokerAccountId: Type.Union([Type.String(), Type.Null()]),
    liveTrading: Type.Boolean(),
    autoPlaceOrders: Type.Boolean(),
    liveTradingAvailable: Type.Boolean({ description: 'false for an additional account: trading on it is not available yet' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
)
export type AccountView = Static<typeof AccountView>

/**
 * How an account stands (stage 3a, docs/decisions/accounts.md): the primary's is the spec's live-trading
 * status (`GET /api/live-trading-status`: the four-state indicator and the broker connection's health, from
 * the same reading); an additional account does not trade yet and says so.
 */
export const AccountStatus = Type.Object(
  {
    trading: Type.Boolean({ description: 'false: this account does not trade yet (an additional account, until the broker connection trades by account)' }),
    indicator: Indicator,
    indicatorReason: Type.Union([Type.String(), Type.Null()], { description: 'why the indicator is not green (or why the account does not trade); null when green, or gray with live trading off' }),
    brokerConnection: Type.Union([BrokerConnection, Type.Null()], { description: "the broker connection's health (null for an account that does not trade yet)" }),
  },
  { additionalProperties: false },
)
export type AccountStatus = Static<typeof AccountStatus>

const ListedAccount = Type.Object({ ...AccountView.properties, status: AccountStatus }, { additionalProperties: false })

export const AccountsResponse = Type.Object({ success: Type.Literal(true), accounts: Type.Array(ListedAccount) })

export const AccountResponse = Type.Object({
  success: Type.Literal(true),
  account: AccountView,
  feedCommand: Type.Union([FeedCommandOutcome, Type.Null()], { description: "the primary's broker-feed command this change caused, if any" }),
})

export const DeletedAccountResponse = Type.Object({ success: Type.Literal(true), account: AccountView })
