import { BrokerError } from '../../feeds/broker/broker-adapter.ts'
import { ConcurrencyLimit } from '../../shared/concurrency-limit.ts'
import type { SessionSource } from '../entry/plan-record.ts'
import type { Discrepancy } from '../../repositories/position-discrepancies.ts'
import { reconcilePositions, type HeldSession, type ReconcileDeps } from './reconcile-positions.ts'
import { SerialQueues } from '../../shared/serial-queues.ts'

/** Repairs of a session the status keeps telling (the latest ones; the trades API lists them all). */
const REPAIRS_SHOWN = 3

/** Why an entry waits while the account's session has not been reconciled once (the entry flow's refusal). */
export const NOT_RECONCILED = 'positions not yet reconciled with the broker on this connection (the comparison failed; it is tried again on the reconciliation timer)'

/** A finding in words for the feed status. */
const sentence = (found: Discrepancy) => `${found.reason} (${found.action})`

/**
 * Reconciles each session this instance holds with the broker: when it opens (before it is handed out) and
 * on the timer. One user's passes go one after another. What a pass finds is kept for the feed status: the
 * differences still standing, and the latest repairs of the session. A pass that fails (the broker or
 * Postgres) is logged and left to the timer; it never stops the session from opening. Until one pass of
 * the session has succeeded, `reconciled` says no (the entry flow refuses the account's entries).
 */
export class PositionReconciler {
  readonly #held = new Map<string, HeldSession>()
  /** Users whose session is being opened (not handed out yet, so not the feed manager's current one). */
  readonly #opening = new Set<string>()
  readonly #queues = new SerialQueues()
  readonly #standing = new Map<string, string[]>()
  readonly #repairs = new Map<string, string[]>()
  /** Users whose current session has had a pass that succeeded. */
  readonly #reconciled = new Set<string>()
  readonly #limit = new ConcurrencyLimit(4)

  /** Stops differences seen on the last pass, told when seen again (reconcile-positions.ts). */
  readonly #stopsSuspected = new Map<string, string>()
  constructor(private readonly deps: ReconcileDeps & { sessions: SessionSource }) {}

  /** A new session: reconciled now. A pass that fails leaves it to the timer; the session opens all the same. */
  async sessionOpened(held: HeldSession): Promise<void> {
    this.#held.set(held.userId, held)
    this.#repairs.delete(held.userId)
    this.#standing.delete(held.userId)
    this.#reconciled.delete(held.userId)
    this.#opening.add(held.userId)
    try {
      await this.#pass(held)
    } finally {
      this.#opening.delete(held.userId)
    }
  }

  /**
   * A timer tick: every session this instance holds now, a few users at a time. A session no longer held
   * (stopped, lost, moved to another instance) is let go; its next open registers it again.
   */
  async reconcileAll(): Promise<void> {
    const current: HeldSession[] = []
    for (const [userId, held] of this.#held) {
      if (this.deps.sessions.session(userId) === held.session) current.push(held)
      else if (!this.#opening.has(userId)) this.#forget(userId)
    }
    await Promise.all(current.map((held) => this.#limit.run(() => this.#pass(held))))
  }

  #forget(userId: string): void {
    this.#held.delete(userId)
    this.#standing.delete(userId)
    this.#repairs.delete(userId)
    this.#reconciled.delete(userId)
  }

  /** Whether a pass of the user's session (the one held now) has succeeded: its positions were compared once. */
  reconciled(userId: string): boolean {
    return this.#reconciled.has(userId)
  }

  /** The feed status's sentence about reconciliation for the user, or null when there is nothing to tell. */
  statusNote(userId: string): string | null {
    const standing = this.#standing.get(userId) ?? []
    const repairs = this.#repairs.get(userId) ?? []
    const parts = [
      ...(this.#held.has(userId) && !this.#reconciled.has(userId) ? ['positions not yet reconciled with the broker (tried again on the timer; entries wait)'] : []),
      ...(standing.length > 0 ? [`broker and trades differ: ${standing.join('; ')}`] : []),
      ...(repairs.length > 0 ? [`reconciled with the broker: ${repairs.join('; ')}`] : []),
    ]
    return parts.length === 0 ? null : parts.join('; ')
  }

  /** Waits for the passes under way (tests, shutdown). */
  async idle(): Promise<void> {
    await this.#queues.idle()
  }

  #pass(held: HeldSession): Promise<void> {
    const { userId } = held
    const work = async () => {
      try {
        const found = await reconcilePositions({ ...this.deps, stopsSuspected: this.#stopsSuspected }, held)
        if (found === null) return
        this.#standing.set(userId, found.filter((item) => !item.resolved).map(sentence))
        const repairs = [...(this.#repairs.get(userId) ?? []), ...found.filter((item) => item.resolved).map(sentence)]
        this.#repairs.set(userId, repairs.slice(-REPAIRS_SHOWN))
        this.#reconciled.add(userId)
        await this.deps.coverStopGaps?.(userId)
      } catch (error) {
        // Issue 20, item 5: one failure is logged and left to the next pass, never a session that cannot open.
        if (error instanceof BrokerError) this.deps.logger.warn({ userId, kind: error.kind, reason: error.message }, 'positions not reconciled with the broker; tried again on the next pass')
        else this.deps.logger.warn({ userId, err: error }, 'positions not reconciled with the broker (not a broker failure); tried again on the next pass')
      }
    }
    return this.#queues.run(userId, work)
  }
}
