import { Counter, Histogram, type Registry } from 'prom-client'
import type { EntryObserver } from './entry/entry-observer.ts'

/**
 * Orders by outcome and the time from an alert's arrival at ingest to the broker's acceptance of its
 * order (both clocks are the hosts' own: keep them synchronised).
 */
export function entryMetrics(registry: Registry): EntryObserver {
  const orders = new Counter({
    name: 'connector_orders_total',
    help: "Entry records settled, by outcome: placed at the broker, or refused, failed or not placed",
    labelNames: ['outcome'] as const,
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'connector_alert_to_order_seconds',
    help: "From the alert's arrival at ingest to the broker's acceptance of its order",
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  })
  return {
    settled: (outcome) => orders.inc({ outcome }),
    accepted: (receivedAt) => latency.observe(Math.max(0, Date.now() - receivedAt.getTime()) / 1000),
  }
}
