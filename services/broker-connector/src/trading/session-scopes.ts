import type { BrokerSession, BrokerVenue } from '../feeds/broker/broker-adapter.ts'
import type { BrokerScope } from '../repositories/broker-trades.ts'

/**
 * Where each session's broker ids live: its venue (broker and environment) and account, noted as the
 * session opens (a session knows its account, not its venue). What a session reads and acts on (open pnl,
 * the watchdog, flattens, the differences that hold entries back) is its account's, never the user's other
 * accounts' or venues'.
 */
export class SessionScopes {
  readonly #scopes = new WeakMap<BrokerSession, BrokerScope>()

  opened(session: BrokerSession, venue: BrokerVenue): BrokerScope {
    const scope = { broker: venue.broker, environment: venue.environment, accountId: session.snapshot.account.id }
    this.#scopes.set(session, scope)
    return scope
  }

  /** The session's scope; a session not opened through the session hooks is a programming error. */
  of(session: BrokerSession): BrokerScope {
    const scope = this.#scopes.get(session)
    if (!scope) throw new Error(`no broker scope noted for the session of account ${session.snapshot.account.id}`)
    return scope
  }
}
