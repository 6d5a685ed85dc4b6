/** A record's outcome once written: an order at the broker, or a decision without one. */
export type OrderOutcome = 'placed' | 'refused' | 'failed' | 'not_placed'

/** What the entry flow tells as it settles records (the connector's metrics). */
export interface EntryObserver {
  /** A record's final outcome was written (a record corrected later, "outcome unknown" to placed, is told again). */
  settled(outcome: OrderOutcome): void
  /** The broker accepted an order we sent for an alert that ingest received at `receivedAt`. */
  accepted(receivedAt: Date): void
}
