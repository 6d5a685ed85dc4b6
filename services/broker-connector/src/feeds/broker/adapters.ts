import type { BrokerName } from '@signals/contracts'
import type { BrokerAdapter, BrokerEndpoints, BrokerLogin, BrokerSession, SessionOptions } from './broker-adapter.ts'
import { ProjectXAdapter } from './projectx/adapter.ts'
import { TradovateAdapter } from './tradovate/adapter.ts'

/**
 * Each broker of the registry (`@signals/contracts` BROKERS) and the adapter that speaks to it: a new
 * broker adds its folder beside `tradovate/` and one line here (the type asks for it).
 */
const FACTORIES: { [B in BrokerName]: () => BrokerAdapter<B> } = {
  paper: () => new TradovateAdapter(),
  tradovate: () => new TradovateAdapter(),
  projectx: () => new ProjectXAdapter(),
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

  constructor(private readonly overrides: BrokerAdapterOverrides = {}) {}

  of<B extends BrokerName>(broker: B): BrokerAdapter<B> {
    let adapter = this.#made.get(broker)
    if (!adapter) {
      adapter = this.overrides[broker] ?? FACTORIES[broker]()
      this.#made.set(broker, adapter)
    }
    // Kept under its own broker's name only, so it takes that broker's logins.
    return adapter as BrokerAdapter<B>
  }

  openSession(endpoints: BrokerEndpoints, login: BrokerLogin, options: SessionOptions): Promise<BrokerSession> {
    return this.of(login.broker).openSession(endpoints, login, options)
  }
}
