import { ROOT_CONTEXT, trace, tracerFor, type SpanContext } from '@signals/telemetry'
import type { BrokerFill } from '../../feeds/broker/broker-adapter.ts'
import type { EntryObserver } from '../entry/entry-observer.ts'

/** Orders remembered, and early fills kept, at most: the oldest are forgotten first (their fills then start no span). */
const REMEMBERED = 10_000
const EARLY_FILLS = 1_000

/**
 * Puts a broker's fills in the trace of the alert whose order they fill: each order the broker accepted
 * inside an order span is remembered with that span, and a fill of it is a `fill` span under it. A market
 * order's fill often arrives on the socket before the order's own answer: such a fill is kept (briefly,
 * tracing on only) until its order is known. With tracing off nothing is kept and a fill costs one check.
 */
export class OrderTraces implements EntryObserver {
  readonly #spans = new Map<number, SpanContext>()
  readonly #early = new Map<number, BrokerFill[]>()

  constructor(private readonly service: string) {}

  settled(): void {}

  accepted(_receivedAt: Date, orderIds: readonly number[]): void {
    const span = trace.getActiveSpan()
    if (span === undefined) return
    const spanContext = span.spanContext()
    for (const orderId of orderIds) {
      this.#spans.set(orderId, spanContext)
      for (const fill of this.#early.get(orderId) ?? []) this.#fillSpan(spanContext, fill)
      this.#early.delete(orderId)
    }
    bound(this.#spans, REMEMBERED)
  }

  onFill(fill: BrokerFill): void {
    if (tracerFor(this.service) === null) return
    const parent = this.#spans.get(fill.orderId)
    if (parent !== undefined) return this.#fillSpan(parent, fill)
    this.#early.set(fill.orderId, [...(this.#early.get(fill.orderId) ?? []), fill])
    bound(this.#early, EARLY_FILLS)
  }

  #fillSpan(parent: SpanContext, fill: BrokerFill): void {
    const tracer = tracerFor(this.service)
    if (tracer === null) return
    const attributes = { 'order.id': fill.orderId, 'fill.id': fill.id, 'fill.quantity': fill.quantity, 'fill.price': fill.price }
    tracer.startSpan('fill', { attributes }, trace.setSpanContext(ROOT_CONTEXT, parent)).end()
  }
}

/** Drops the oldest entries (a Map keeps insertion order) beyond `size`. */
function bound(map: Map<number, unknown>, size: number): void {
  for (const oldest of map.keys()) {
    if (map.size <= size) return
    map.delete(oldest)
  }
}
