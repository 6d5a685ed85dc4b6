import Type, { type Static, type TObject } from 'typebox'
import { BrokerCapabilities, BrokerIdSpaces } from './broker-descriptor.ts'
import { BROKERS, BROKER_NAMES, type BrokerName } from './registry.ts'

/** One field of a broker's credentials form, read from its credentials schema. */
export const BrokerFormField = Type.Object(
  {
    name: Type.String({ description: 'the body property it fills (`appId`)' }),
    label: Type.String(),
    help: Type.String(),
    required: Type.Boolean(),
    secret: Type.Boolean({ description: 'a password input, never filled from a stored value, not trimmed' }),
    maxLength: Type.Union([Type.Integer(), Type.Null()]),
  },
  { additionalProperties: false },
)
export type BrokerFormField = Static<typeof BrokerFormField>

/** What the page needs to offer a broker: its form beside the common `environment` and `accountId`, and what it can do. */
export const BrokerInfo = Type.Object(
  {
    name: Type.String({ description: 'the `broker` value of `PUT /api/broker-credentials`' }),
    label: Type.String(),
    fields: Type.Array(BrokerFormField),
    capabilities: BrokerCapabilities,
    ids: BrokerIdSpaces,
  },
  { additionalProperties: false },
)
export type BrokerInfo = Static<typeof BrokerInfo>

type SchemaNode = Record<string, unknown>

/** The longest text a field takes (a union: its longest branch), or null when it states none. */
function maxLengthOf(node: SchemaNode): number | null {
  if (typeof node.maxLength === 'number') return node.maxLength
  const branches = Array.isArray(node.anyOf) ? (node.anyOf as SchemaNode[]) : []
  const lengths = branches.map((branch) => branch.maxLength).filter((length): length is number => typeof length === 'number')
  return lengths.length > 0 ? Math.max(...lengths) : null
}

/** The form of a credentials schema, in its properties' order. */
export function formFieldsOf(schema: TObject): BrokerFormField[] {
  const required = new Set<string>(schema.required ?? [])
  return Object.entries(schema.properties as Record<string, SchemaNode>).map(([name, node]) => ({
    name,
    label: typeof node.title === 'string' ? node.title : name,
    help: typeof node.description === 'string' ? node.description : '',
    required: required.has(name),
    secret: node.writeOnly === true,
    maxLength: maxLengthOf(node),
  }))
}

export function brokerInfoOf(name: BrokerName): BrokerInfo {
  const broker = BROKERS[name]
  return { name, label: broker.label, fields: formFieldsOf(broker.credentials), capabilities: broker.capabilities, ids: broker.ids }
}

/** Every broker's form and capabilities, in the registry's order. */
export const brokerInfos = (): BrokerInfo[] => BROKER_NAMES.map(brokerInfoOf)
