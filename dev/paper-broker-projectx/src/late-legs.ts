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
  readonly #timers = new Set<NodeJS.Timeout>()

  constructor(private readonly send: (events: UserEvent[]) => void) {}

  delay(ms: number): void {
    this.#ms = Math.max(0, ms)
  }

  /** The batch to send now; its legs' order events are sent later when delayed. */
  keep(events: UserEvent[]): UserEvent[] {
    if (this.#ms === 0) return events
    const legs = events.filter(isLegOrder)
    if (legs.length === 0) return events
    const timer = setTimeout(() => {
      this.#timers.delete(timer)
      this.send(legs)
    }, this.#ms)
    this.#timers.add(timer)
    return events.filter((event) => !isLegOrder(event))
  }

  stop(): void {
    for (const timer of this.#timers) clearTimeout(timer)
    this.#timers.clear()
  }
}
