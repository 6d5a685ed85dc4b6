import type { UserEvent } from './wire.ts'

const isLegOrder = (event: UserEvent): boolean => event.target === 'GatewayUserOrder' && 'parentOrderId' in event.data && event.data.parentOrderId !== null

/**
 * ProjectX places a bracket's legs once the entry has filled, so their events come after the fill's (by how
 * long, ProjectX does not say). `delay(ms)` keeps the legs' order events of each batch back `ms` (tests of a
 * client that must not count on them coming with the fill); their own order is kept. 0, the default, sends
 * every batch whole.
 */
export class LateLegs {
  #ms = 0

  constructor(private readonly send: (events: UserEvent[]) => void) {}

  delay(ms: number): void {
    this.#ms = Math.max(0, ms)
  }

  /** The batch to send now; its legs' order events are sent later when delayed. */
  keep(events: UserEvent[]): UserEvent[] {
    if (this.#ms === 0) return events
    const legs = events.filter(isLegOrder)
    if (legs.length === 0) return events
    // Unref'd: one still due when the broker closes sends to no client, and keeps no test process alive.
    setTimeout(() => this.send(legs), this.#ms).unref()
    return events.filter((event) => !isLegOrder(event))
  }
}
