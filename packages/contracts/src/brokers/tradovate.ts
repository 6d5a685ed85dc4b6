import Type from 'typebox'
import { credentialSecret, credentialText, type BrokerCapabilities, type BrokerDescriptor, type BrokerIdSpaces } from './broker-descriptor.ts'

// Tradovate, and the development paper broker that speaks Tradovate's wire (dev/paper-broker): one
// protocol, two broker names, since each numbers its own orders and accounts and the paper broker needs
// no API client. The connector's `broker/tradovate/` serves both.

/** Shared with ProjectX's login (one schema per field name across brokers: settings merges them). */
export const username = credentialText('User name', "the broker login's user name (Tradovate's `name`, ProjectX's `userName`); stored sealed, shown masked")
const password = credentialSecret('Password', 'the login password; stored sealed, never shown')
const appId = credentialText('App id', 'application id registered with the broker')
const appVersion = credentialText('App version', 'application version', 64)
const cid = Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.String({ minLength: 1, maxLength: 512 })], {
  title: 'Client id (cid)',
  description: "API client id, a number as Tradovate's documents show it, or a string; stored sealed, never shown",
  writeOnly: true,
})
const sec = credentialSecret('Client secret (sec)', 'API client secret; stored sealed, never shown')
const deviceId = credentialText('Device id', 'stable device id for the broker (optional)')

/** Tradovate's access-token request (`auth/accesstokenrequest`) needs every field but deviceId. */
const TradovateCredentials = Type.Object(
  { username, password, appId, appVersion, cid, sec, deviceId: Type.Optional(deviceId) },
  { additionalProperties: false },
)

/** The paper broker checks only the user name and password; the API client fields may come along. */
const PaperCredentials = Type.Object(
  {
    username,
    password,
    appId: Type.Optional(appId),
    appVersion: Type.Optional(appVersion),
    cid: Type.Optional(cid),
    sec: Type.Optional(sec),
    deviceId: Type.Optional(deviceId),
  },
  { additionalProperties: false },
)

const TRADOVATE_CAPABILITIES: BrokerCapabilities = {
  // placeOSO; a bracket without a target is an OSO with one leg.
  brackets: ['oso'],
  // order/modifyorder
  modify: true,
  // order type TrailingStop (not used by the entry flow yet)
  trailing: true,
  // no such call: liquidateposition closes all, a part is an opposite order
  partialClose: false,
}

const TRADOVATE_IDS: BrokerIdSpaces = { account: 'integer', contract: 'integer', order: 'integer', fill: 'integer' }

export const tradovate = {
  label: 'Tradovate',
  credentials: TradovateCredentials,
  capabilities: TRADOVATE_CAPABILITIES,
  ids: TRADOVATE_IDS,
} satisfies BrokerDescriptor

export const paper = {
  label: 'Paper (development)',
  credentials: PaperCredentials,
  capabilities: TRADOVATE_CAPABILITIES,
  ids: TRADOVATE_IDS,
} satisfies BrokerDescriptor
