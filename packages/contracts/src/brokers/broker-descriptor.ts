import Type, { type Static, type TObject } from 'typebox'

// What every broker brings to the platform besides its adapter: the words settings, the connector and the
// page share (docs/decisions/broker-registry.md). Nothing here speaks a broker's wire.

/**
 * How a broker attaches a stop-loss and a take-profit to an entry:
 * - `oso`: one request places the entry and its stop and target legs at absolute prices, the legs working
 *   once the entry fills and cancelling each other (Tradovate `order/placeOSO`);
 * - `tick_offsets`: the entry carries its stop and target as signed tick distances, and the broker places
 *   them on the fill (ProjectX `stopLossBracket`/`takeProfitBracket`, where the account's settings allow);
 * - `separate_orders`: the broker links nothing; the connector places the stop and the target itself
 *   after the fill and cancels the other when one fills.
 */
export const BracketKind = Type.Union([Type.Literal('oso'), Type.Literal('tick_offsets'), Type.Literal('separate_orders')])
export type BracketKind = Static<typeof BracketKind>

/** What the broker's API can do, for the entry flow to choose a way and for the page to say what is offered. */
export const BrokerCapabilities = Type.Object(
  {
    /** The ways it can bracket an entry, preferred first (at least one). */
    brackets: Type.Array(BracketKind, { minItems: 1 }),
    /** A working order's quantity or price can be changed in place (otherwise cancel and place again). */
    modify: Type.Boolean(),
    /** It offers a trailing-stop order type. */
    trailing: Type.Boolean(),
    /** It has a call closing part of a position (otherwise a part is closed with an opposite order). */
    partialClose: Type.Boolean(),
  },
  { additionalProperties: false },
)
export type BrokerCapabilities = Static<typeof BrokerCapabilities>

/** How the broker writes one kind of id: a whole number or an opaque text (ProjectX's `CON.F.US.ENQ.Z25`). */
export const BrokerIdKind = Type.Union([Type.Literal('integer'), Type.Literal('text')])
export type BrokerIdKind = Static<typeof BrokerIdKind>

/**
 * The broker's id spaces: how it writes the ids of each thing we keep. Ids are unique only within one
 * broker name, environment and account (the trades' `(broker, environment, broker_account_id)` scope), so
 * two brokers sharing a wire (`paper` and `tradovate`) still number apart.
 */
export const BrokerIdSpaces = Type.Object(
  { account: BrokerIdKind, contract: BrokerIdKind, order: BrokerIdKind, fill: BrokerIdKind },
  { additionalProperties: false },
)
export type BrokerIdSpaces = Static<typeof BrokerIdSpaces>

/** Everything the platform knows about one broker, keyed by its name in the registry. */
export interface BrokerDescriptor<Credentials extends TObject = TObject> {
  /** What the trader reads (`Tradovate`). */
  label: string
  /**
   * The sealed part of the credentials (`PUT /api/broker-credentials` beside `broker`, `environment` and
   * `accountId`): each property's `title` labels its form field, `description` helps, `writeOnly` marks
   * a secret. Optional properties are stored as null when left out.
   */
  credentials: Credentials
  capabilities: BrokerCapabilities
  ids: BrokerIdSpaces
}

/** A credentials field as the schema wants it, with the words its form field shows. */
export const credentialText = (title: string, description: string, maxLength = 255) =>
  Type.String({ minLength: 1, maxLength, title, description })

/** A secret: sealed, never shown again, never trimmed by the page. */
export const credentialSecret = (title: string, description: string, maxLength = 512) =>
  Type.String({ minLength: 1, maxLength, title, description, writeOnly: true })
