import type { BrokerName } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import type { Logger } from '../../shared/logger.ts'
import type { BrokerAdapter, BrokerEndpoints, BrokerLogin, BrokerSession, SessionOptions } from './broker-adapter.ts'

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

/**
 * Each adapter's code is loaded when its broker's first login opens (the build puts it in a chunk of its
 * own): a connector with no session of a broker does not hold its adapter, its mapping and its client
 * (ProjectX's SignalR, Tradovate's WebSocket) for nothing (docs/decisions/memory.md, eighth pass).
 */
const tradovateAdapter = async () => new (await import('./tradovate/adapter.ts')).TradovateAdapter()
const FACTORIES: { [B in BrokerName]: (needs: AdapterNeeds) => Promise<BrokerAdapter<B>> } = {
  paper: tradovateAdapter,
  tradovate: tradovateAdapter,
  // The legs ProjectX's no-brackets accounts get from us are planned in Postgres when there is one (own-legs.ts).
  projectx: async ({ db, logger, restingOwnLegs }) => {
    const [{ ProjectXAdapter }, { postgresOwnLegStore }] = await Promise.all([import('./projectx/adapter.ts'), import('./projectx/own-leg-store.ts')])
    return new ProjectXAdapter({ ...(db === null ? {} : { ownLegs: postgresOwnLegStore(db) }), ...(logger ? { logger } : {}), restingOwnLegs: restingOwnLegs ?? false })
  },
}

/** Adapters to use instead of the registry's, per broker (tests: an adapter with short waits). */
export type BrokerAdapterOverrides = { [B in BrokerName]?: BrokerAdapter<B> }

/**
 * The adapters of one process, one per broker, made on first use and kept: an adapter holds what outlives
 * a session (Tradovate's penalty tickets of logins that gave up waiting). A login opens its session with
 * its own broker's adapter.
 */
export class BrokerAdapters implements BrokerAdapter {
  /** The adapter being made or made, per broker: two logins opening at once get the same one. */
  readonly #made = new Map<BrokerName, Promise<BrokerAdapter<never>>>()

  /** `needs.db`: what an adapter keeps past a restart (the feeds' sessions); null for login tests, which place nothing. */
  constructor(
    private readonly overrides: BrokerAdapterOverrides = {},
    private readonly needs: AdapterNeeds = { db: null },
  ) {}

  of<B extends BrokerName>(broker: B): Promise<BrokerAdapter<B>> {
    let adapter = this.#made.get(broker)
    if (!adapter) {
      const override = this.overrides[broker]
      // A load that failed is not kept: the next login tries again, as a constructor that threw did.
      adapter = override ? Promise.resolve(override) : FACTORIES[broker](this.needs).catch((error: unknown) => {
        this.#made.delete(broker)
        throw error
      })
      this.#made.set(broker, adapter)
    }
    // Kept under its own broker's name only, so it takes that broker's logins.
    return adapter as Promise<BrokerAdapter<B>>
  }

  async openSession(endpoints: BrokerEndpoints, login: BrokerLogin, options: SessionOptions): Promise<BrokerSession> {
    return (await this.of(login.broker)).openSession(endpoints, login, options)
  }

  /** Closes every adapter made (the feeds close, their sessions first): a ProjectX account's own-legs retry timer stops. */
  async close(): Promise<void> {
    for (const made of this.#made.values()) {
      // One whose code failed to load was never made: nothing to close.
      const adapter = await made.catch(() => undefined)
      await adapter?.close?.()
    }
  }
}
