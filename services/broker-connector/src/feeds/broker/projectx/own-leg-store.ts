import type { Database, Kysely } from '@signals/db'
import {
  claimOwnLegFlatten,
  claimOwnLegGrowth,
  closedTradeCounted,
  openTradeCut,
  closeOwnLegPlan,
  countOwnLegFill,
  markOwnLegResent,
  markOwnLegSent,
  noteOwnLegPlaced,
  noteOwnLegRefused,
  noteOwnLegTrouble,
  ownLegPlans,
  saveOwnLegPlan,
  type NewOwnLegPlan,
  type OwnLegPlanRow,
} from '../../../repositories/own-leg-plans.ts'
import { lateClosesOf, nameLateClose, noteLateCloseSent, withdrawLateClose, type LateCloseRow } from '../../../repositories/own-leg-late-closes.ts'

type Leg = 'sl' | 'tp'

/** Where the legs we place ourselves are planned and followed (own-legs.ts; repositories/own-leg-plans.ts says what each does). */
export interface OwnLegStore {
  /** Kept past a restart, and seen by every instance: a resting entry may wait for its fill. */
  readonly durable: boolean
  save(plan: NewOwnLegPlan): Promise<boolean>
  plans(tags: readonly string[]): Promise<OwnLegPlanRow[]>
  countFill(tag: string, tradeId: number, quantity: number): Promise<void>
  markSent(tag: string, leg: Leg): Promise<boolean>
  markResent(tag: string, leg: Leg): Promise<boolean>
  placed(tag: string, leg: Leg, orderId: number, covered: number): Promise<void>
  claimGrowth(tag: string, leg: Leg, from: number, to: number): Promise<boolean>
  refused(tag: string, leg: Leg, why: string): Promise<void>
  /** The legs closed the trade while the entry worked: its rest is to be cancelled, a fill past `filled` is late. */
  close(tag: string, filled: number): Promise<boolean>
  /** The plan's contracts its record's trade counted once that trade is closed (any other fill is late); null while open. */
  closedTradeCounted(tag: string): Promise<number | null>
  /** The contracts closed off the record's trade while it stays open (a partial exit): no leg stands for them. */
  openTradeCut(tag: string): Promise<number>
  claimFlatten(tag: string, from: number, to: number): Promise<boolean>
  /** Tells the trader, on the record, of a leg that could not be placed or grown. */
  note(recordId: number, note: string): Promise<void>
  /** A late close about to go (late-closes.ts), its withdrawal (certainly not placed), the order taken for it, and the account's since a time. */
  lateCloseSent(tag: string, sentAt: Date, size: number): Promise<void>
  lateCloseWithdrawn(tag: string, sentAt: Date): Promise<void>
  lateCloseNamed(tag: string, sentAt: Date, orderId: number): Promise<void>
  lateCloses(brokerAccountId: number, since: Date): Promise<LateCloseRow[]>
}

/** The plans in Postgres (own_leg_plans, own_legs, own_leg_fills): what the connector runs with. */
export function postgresOwnLegStore(db: Kysely<Database>): OwnLegStore {
  return {
    durable: true,
    save: (plan) => saveOwnLegPlan(db, plan),
    plans: (tags) => ownLegPlans(db, tags),
    countFill: (tag, tradeId, quantity) => countOwnLegFill(db, tag, tradeId, quantity),
    markSent: (tag, leg) => markOwnLegSent(db, tag, leg),
    markResent: (tag, leg) => markOwnLegResent(db, tag, leg),
    placed: (tag, leg, orderId, covered) => noteOwnLegPlaced(db, tag, leg, orderId, covered),
    claimGrowth: (tag, leg, from, to) => claimOwnLegGrowth(db, tag, leg, from, to),
    refused: (tag, leg, why) => noteOwnLegRefused(db, tag, leg, why),
    close: (tag, filled) => closeOwnLegPlan(db, tag, filled),
    closedTradeCounted: (tag) => closedTradeCounted(db, tag),
    openTradeCut: (tag) => openTradeCut(db, tag),
    claimFlatten: (tag, from, to) => claimOwnLegFlatten(db, tag, from, to),
    note: (recordId, note) => noteOwnLegTrouble(db, recordId, note),
    lateCloseSent: (tag, sentAt, size) => noteLateCloseSent(db, tag, sentAt, size),
    lateCloseWithdrawn: (tag, sentAt) => withdrawLateClose(db, tag, sentAt),
    lateCloseNamed: (tag, sentAt, orderId) => nameLateClose(db, tag, sentAt, orderId),
    lateCloses: (brokerAccountId, since) => lateClosesOf(db, brokerAccountId, since),
  }
}

/**
 * The plans in this process's memory: an adapter made without a database (a login test, the adapter's own
 * tests). Lost at a restart, so such an adapter takes market entries only on an account that refuses brackets.
 */
export class MemoryOwnLegStore implements OwnLegStore {
  readonly durable = false
  readonly #plans = new Map<string, OwnLegPlanRow>()
  readonly #fills = new Set<string>()

  async save(plan: NewOwnLegPlan): Promise<boolean> {
    if (this.#plans.has(plan.tag)) return true
    const leg = (name: Leg, price: string) => ({ leg: name, price, orderId: null, covered: 0, sent: false, resent: false, outcome: null })
    // No record here: the tag's `sig-<id>` names it, and no user is known (nothing is noted, only logged).
    const recordId = Number(/^sig-(\d+)/.exec(plan.tag)?.[1] ?? 0)
    this.#plans.set(plan.tag, { tag: plan.tag, recordId, userId: '', contractId: plan.contractId, side: plan.side, filled: 0, closedFilled: null, flattened: 0, legs: [leg('sl', plan.stop), ...(plan.target === null ? [] : [leg('tp', plan.target)])] })
    if (this.#plans.size > 1_000) this.#plans.delete(this.#plans.keys().next().value as string)
    return true
  }

  async plans(tags: readonly string[]): Promise<OwnLegPlanRow[]> {
    return tags.flatMap((tag) => {
      const plan = this.#plans.get(tag)
      return plan ? [{ ...plan, legs: plan.legs.map((leg) => ({ ...leg })) }] : []
    })
  }

  async countFill(tag: string, tradeId: number, quantity: number): Promise<void> {
    const plan = this.#plans.get(tag)
    if (!plan || this.#fills.has(`${tag}\n${tradeId}`)) return
    this.#fills.add(`${tag}\n${tradeId}`)
    plan.filled += quantity
  }

  async markSent(tag: string, leg: Leg): Promise<boolean> {
    const kept = this.#leg(tag, leg)
    if (!kept || kept.sent) return false
    kept.sent = true
    return true
  }

  async markResent(tag: string, leg: Leg): Promise<boolean> {
    const kept = this.#leg(tag, leg)
    if (!kept || kept.resent || kept.orderId !== null || kept.outcome !== null) return false
    kept.resent = true
    return true
  }

  async note(): Promise<void> {}

  // Nothing kept past the process: the account's LateCloses (kept across its sessions) holds what is due.
  async lateCloseSent(): Promise<void> {}
  async lateCloseWithdrawn(): Promise<void> {}
  async lateCloseNamed(): Promise<void> {}
  async lateCloses(): Promise<LateCloseRow[]> {
    return []
  }

  async placed(tag: string, leg: Leg, orderId: number, covered: number): Promise<void> {
    const kept = this.#leg(tag, leg)
    if (kept && kept.orderId === null) Object.assign(kept, { orderId, covered, sent: true })
  }

  async claimGrowth(tag: string, leg: Leg, from: number, to: number): Promise<boolean> {
    const kept = this.#leg(tag, leg)
    if (!kept || kept.covered !== from) return false
    kept.covered = to
    return true
  }

  async refused(tag: string, leg: Leg, why: string): Promise<void> {
    const kept = this.#leg(tag, leg)
    if (kept && kept.outcome === null) kept.outcome = why
  }

  async close(tag: string, filled: number): Promise<boolean> {
    const plan = this.#plans.get(tag)
    if (!plan || plan.closedFilled !== null) return false
    plan.closedFilled = filled
    return true
  }

  /** No trades here (an adapter without a database): the legs' sizes tell what the trade stood for. */
  async closedTradeCounted(): Promise<number | null> {
    return null
  }

  async openTradeCut(): Promise<number> {
    return 0
  }

  async claimFlatten(tag: string, from: number, to: number): Promise<boolean> {
    const plan = this.#plans.get(tag)
    if (!plan || plan.closedFilled === null || plan.flattened !== from) return false
    plan.flattened = to
    return true
  }

  #leg(tag: string, leg: Leg) {
    return this.#plans.get(tag)?.legs.find((kept) => kept.leg === leg)
  }
}
