import { Gauge, type Registry } from 'prom-client'

/** Broker feeds this instance holds, up (connected) and down (connecting or in error), read at each scrape. */
export function feedMetrics(registry: Registry, counts: () => { up: number; down: number }): void {
  new Gauge({
    name: 'connector_broker_feeds',
    help: 'Broker feeds this instance holds, by state (up: connected; down: connecting or in error)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { up, down } = counts()
      this.set({ state: 'up' }, up)
      this.set({ state: 'down' }, down)
    },
  })
}
