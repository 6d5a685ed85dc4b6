import type { JsMsg } from '@nats-io/jetstream'
import { SpanKind, TRACEPARENT, context, contextFromTraceparent, failed, trace, traceparentOf, type Tracer } from '@signals/telemetry'
import type { PublishResult } from './acked-publisher.ts'

/**
 * A publish as a producer span, a child of the active span; its W3C trace context goes in the message's
 * headers (`send` puts it there), so the consumer's span continues the same trace. The span ends with the
 * server's ack (or the refusal).
 */
export function tracedPublish(tracer: Tracer, subject: string, messageId: string, send: (traceparent: string | undefined) => Promise<PublishResult>): Promise<PublishResult> {
  const span = tracer.startSpan(`publish ${subject}`, {
    kind: SpanKind.PRODUCER,
    attributes: { 'messaging.system': 'nats', 'messaging.operation.type': 'send', 'messaging.destination.name': subject, 'messaging.message.id': messageId },
  })
  return send(traceparentOf(span)).then(
    (result) => {
      span.setAttribute('messaging.nats.stream_sequence', result.sequence)
      if (result.duplicate) span.setAttribute('messaging.nats.duplicate', true)
      span.end()
      return result
    },
    (error: unknown) => {
      failed(span, error)
      span.end()
      throw error
    },
  )
}

/**
 * One delivery as a consumer span, a child of the publish span named in the message's headers (a new
 * trace when there is none); the handler runs inside it, so what it does (a decision, an order, another
 * publish) joins the trace.
 */
export function tracedDelivery(tracer: Tracer, subject: string, durable: string, message: JsMsg, handle: () => Promise<void>): Promise<void> {
  const parent = contextFromTraceparent(message.headers?.get(TRACEPARENT))
  const span = tracer.startSpan(
    `consume ${subject}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'nats',
        'messaging.operation.type': 'process',
        'messaging.destination.name': subject,
        'messaging.consumer.group.name': durable,
        'messaging.nats.delivery_count': message.info.deliveryCount,
      },
    },
    parent,
  )
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      await handle()
    } catch (error) {
      failed(span, error)
      throw error
    } finally {
      span.end()
    }
  })
}
