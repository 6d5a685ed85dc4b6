import type { Static } from 'typebox'
import type { BrokerDescriptor } from './broker-descriptor.ts'
import { projectx } from './projectx.ts'
import { paper, tradovate } from './tradovate.ts'

/**
 * Every broker the platform can trade through, by its name (stored in `broker_logins.broker` and
 * beside every broker id). Adding a broker: its descriptor in its own file here, one line below, and its
 * adapter in the connector's `broker/<name>/` with one line in `broker/adapters.ts` (the compiler asks
 * for it). `BrokerName` (words.ts) is derived from these keys and nowhere else.
 */
export const BROKERS = {
  paper,
  tradovate,
  projectx,
} as const satisfies Record<string, BrokerDescriptor>

export type BrokerName = keyof typeof BROKERS

/** The names in the registry's order (the order error messages and the page list them in). */
export const BROKER_NAMES = Object.keys(BROKERS) as BrokerName[]

export const isBrokerName = (value: unknown): value is BrokerName => typeof value === 'string' && Object.hasOwn(BROKERS, value)

/** The credentials fields a broker's body carries (beside `broker`, `environment` and `accountId`). */
export type BrokerCredentials<B extends BrokerName = BrokerName> = { [K in B]: Static<(typeof BROKERS)[K]['credentials']> }[B]

/** Present or null, never missing: an optional field left out is stored (sealed) as null. */
type NullWhenOptional<T> = { [K in keyof T]-?: undefined extends T[K] ? Exclude<T[K], undefined> | null : T[K] }

/** The credentials as they are sealed in a login (`broker_logins`) and opened by the connector. */
export type SealedBrokerCredentials<B extends BrokerName = BrokerName> = { [K in B]: NullWhenOptional<BrokerCredentials<K>> }[B]
