/** A record's outcome once written: an order at the broker, or a decision without one. */
type OrderOutcome = 'placed' | 'refused' | 'failed' | 'not_placed'

/** What the entry flow tells as it settles records (the connector's metrics and order traces). */
export interface EntryObserver {
  /** A record's final outcome was written (a record corrected later, "outcome unknown" to placed, is told again). */
  settled(outcome: OrderOutcome): void
  /**
   * The broker accepted an order we sent (its orders: entry and legs) for an alert that ingest received at
   * `receivedAt`. Told inside the order's span while tracing is on.
   */
  accepted(receivedAt: Date, orderIds: readonly number[]): void
}

/** Each observer told in turn. */
export function allOf(...observers: EntryObserver[]): EntryObserver {
  return {
    settled: (outcome) => observers.forEach((observer) => observer.settled(outcome)),
    accepted: (receivedAt, orderIds) => observers.forEach((observer) => observer.accepted(receivedAt, orderIds)),
  }
}
