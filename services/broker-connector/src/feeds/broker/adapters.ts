import type { BrokerName } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import type { Logger } from '../../shared/logger.ts'
import type { BrokerAdapter, BrokerEndpoints, BrokerLogin, BrokerSession, SessionOptions } from './broker-adapter.ts'
import { ProjectXAdapter } from './projectx/adapter.ts'
import { postgresOwnLegStore } from './projectx/own-leg-store.ts'
import { TradovateAdapter } from './tradovate/adapter.ts'

/**
 * Each broker of the registry (`@signals/contracts` BROKERS) and the adapter that speaks to it: a new
 * broker adds its folder beside `tradovate/` and one line here (the type asks for it).
 */
/** What an adapter keeps past a restart and logs through: the feeds' sessions have both; login tests neither. */
interface AdapterNeeds {
  db: Kysely<Database> | null
  logger?: Logger
  /** PROJECTX_RESTING_OWN_LEGS: resting entries taken where we place the legs ourselves. */
  restingOwnLegs?: boolean
}

const FACTORIES: { [B in BrokerName]: (needs: AdapterNeeds) => BrokerAdapter<B> } = {
  paper: () => new TradovateAdapter(),
  tradovate: () => new TradovateAdapter(),
  // The legs ProjectX's no-brackets accounts get from us are planned in Postgres when there is one (own-legs.ts).
  projectx: ({ db, logger, restingOwnLegs }) => new ProjectXAdapter({ ...(db === null ? {} : { ownLegs: postgresOwnLegStore(db) }), ...(logger ? { logger } : {}), restingOwnLegs: restingOwnLegs ?? false }),
}

/** Adapters to use instead of the registry's, per broker (tests: an adapter with short waits). */
export type BrokerAdapterOverrides = { [B in BrokerName]?: BrokerAdapter<B> }

/**
 * The adapters of one process, one per broker, made on first use and kept: an adapter holds what outlives
 * a session (Tradovate's penalty tickets of logins that gave up waiting). A login opens its session with
 * its own broker's adapter.
 */
export class BrokerAdapters implements BrokerAdapter {
  readonly #made = new Map<BrokerName, BrokerAdapter<never>>()

  /** `needs.db`: what an adapter keeps past a restart (the feeds' sessions); null for login tests, which place nothing. */
  constructor(
    private readonly overrides: BrokerAdapterOverrides = {},
    private readonly needs: AdapterNeeds = { db: null },
  ) {}

  of<B extends BrokerName>(broker: B): BrokerAdapter<B> {
    let adapter = this.#made.get(broker)
    if (!adapter) {
      adapter = this.overrides[broker] ?? FACTORIES[broker](this.needs)
      this.#made.set(broker, adapter)
    }
    // Kept under its own broker's name only, so it takes that broker's logins.
    return adapter as BrokerAdapter<B>
  }

  openSession(endpoints: BrokerEndpoints, login: BrokerLogin, options: SessionOptions): Promise<BrokerSession> {
    return this.of(login.broker).openSession(endpoints, login, options)
  }

  /** Closes every adapter made (the feeds close, their sessions first): a ProjectX account's own-legs retry timer stops. */
  async close(): Promise<void> {
    for (const adapter of this.#made.values()) await adapter.close?.()
  }
}
