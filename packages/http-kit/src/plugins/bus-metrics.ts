import { Counter, Gauge, type Registry } from 'prom-client'
import type { Bus, ConsumerState } from '@signals/bus'

/**
 * The bus's consumer metrics on the app's registry: lag and unacknowledged messages per durable consumer
 * (asked of the server at each scrape, for the consumers this process runs; several instances sharing a
 * durable report the same figures, so dashboards take the max), and this process's redeliveries and
 * dead letters as counters.
 */
export function registerBusMetrics(registry: Registry, bus: Bus): void {
  const redeliveries = new Counter({
    name: 'bus_consumer_redeliveries_total',
    help: 'Messages a durable consumer was given again (a handler failed or its ack was late)',
    labelNames: ['durable'] as const,
    registers: [registry],
  })
  const deadLetters = new Counter({
    name: 'bus_dead_letters_total',
    help: 'Messages moved to the dead letters, by consumer and subject',
    labelNames: ['durable', 'subject'] as const,
    registers: [registry],
  })
  bus.observe({
    redelivered: (durable) => redeliveries.inc({ durable }),
    deadLettered: (durable, subject) => deadLetters.inc({ durable, subject }),
  })
  const perConsumer = (name: string, help: string, read: (state: ConsumerState) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['stream', 'durable'] as const,
      registers: [registry],
      async collect() {
        const states = await bus.consumerStates()
        this.reset()
        for (const state of states) this.set({ stream: state.stream, durable: state.durable }, read(state))
      },
    })
  perConsumer('bus_consumer_pending_messages', 'Messages in the stream a durable consumer has not been given yet (its lag)', (state) => state.pending)
  perConsumer('bus_consumer_ack_pending_messages', 'Messages given to a durable consumer and not yet acknowledged', (state) => state.ackPending)
}
