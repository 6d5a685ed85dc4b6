import { contract } from '../validate.ts'
import { BROKERS, BROKER_NAMES, type BrokerCredentials, type BrokerName, type SealedBrokerCredentials } from './registry.ts'

const contracts = Object.fromEntries(BROKER_NAMES.map((name) => [name, contract(BROKERS[name].credentials)])) as {
  [B in BrokerName]: ReturnType<typeof contract<(typeof BROKERS)[B]['credentials']>>
}

export type CredentialsCheck<B extends BrokerName> = { ok: true; credentials: BrokerCredentials<B> } | { ok: false; problem: string }

/**
 * Checks credentials fields against their broker's schema. The problem names the field in the caller's
 * words (`appId is required for broker tradovate`, `apiKey is not a field of broker tradovate`).
 */
export function checkBrokerCredentials<B extends BrokerName>(broker: B, fields: Readonly<Record<string, unknown>>): CredentialsCheck<B> {
  const schema = BROKERS[broker].credentials
  const missing = (schema.required as readonly string[]).find((name) => fields[name] === undefined)
  if (missing !== undefined) return { ok: false, problem: `${missing} is required for broker ${broker}` }
  const foreign = Object.keys(fields).find((name) => !Object.hasOwn(schema.properties, name))
  if (foreign !== undefined) return { ok: false, problem: `${foreign} is not a field of broker ${broker}` }
  const checked = contracts[broker].validate(fields)
  if (!checked.ok) {
    const [issue] = checked.issues
    return { ok: false, problem: `${issue?.path.replace(/^\//, '') ?? 'body'} ${issue?.message ?? 'is invalid'} for broker ${broker}` }
  }
  return { ok: true, credentials: checked.value as BrokerCredentials<B> }
}

/** Every field of the broker's schema, an optional one left out as null: what is sealed. */
export function sealedCredentialsOf<B extends BrokerName>(broker: B, credentials: BrokerCredentials<B>): SealedBrokerCredentials<B> {
  const given = credentials as Readonly<Record<string, unknown>>
  return Object.fromEntries(Object.keys(BROKERS[broker].credentials.properties).map((name) => [name, given[name] ?? null])) as SealedBrokerCredentials<B>
}

/**
 * Sealed credentials opened again (by the connector), checked against the broker's schema as settings
 * checked them before sealing; the problem says what is missing or wrong.
 */
export function openedCredentialsOf<B extends BrokerName>(
  broker: B,
  opened: Readonly<Record<string, unknown>>,
): { ok: true; credentials: SealedBrokerCredentials<B> } | { ok: false; problem: string } {
  const given = Object.fromEntries(Object.entries(opened).filter(([, value]) => value !== null && value !== undefined))
  const checked = checkBrokerCredentials(broker, given)
  return checked.ok ? { ok: true, credentials: sealedCredentialsOf(broker, checked.credentials) } : checked
}
