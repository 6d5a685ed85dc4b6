import type { JsMsg } from '@nats-io/jetstream'
import { SpanKind, TRACEPARENT, context, contextFromTraceparent, failed, trace, traceparentOf, type Context, type Span, type Tracer } from '@signals/telemetry'
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
  return runInside(parent, span, handle)
}

/**
 * A core request as a client span, a child of the active span; its W3C trace context goes in the request's
 * headers (`send` puts it there), so the responder's span continues the same trace. The span ends with the
 * reply (or the time-out).
 */
export function tracedRequest<T>(tracer: Tracer, subject: string, send: (traceparent: string | undefined) => Promise<T>): Promise<T> {
  const span = tracer.startSpan(`request ${subject}`, {
    kind: SpanKind.CLIENT,
    attributes: { 'messaging.system': 'nats', 'messaging.operation.type': 'send', 'messaging.destination.name': subject },
  })
  return send(traceparentOf(span)).then(
    (reply) => {
      span.end()
      return reply
    },
    (error: unknown) => {
      failed(span, error)
      span.end()
      throw error
    },
  )
}

/**
 * One answered request as a server span, a child of the requester's span named by the request's
 * `traceparent` header (a new trace when there is none); `answer` runs inside it, so what it does (a
 * decision, an order) joins the requester's trace.
 */
export function tracedAnswer(tracer: Tracer, subject: string, traceparent: string | undefined, answer: () => Promise<void>): Promise<void> {
  const parent = contextFromTraceparent(traceparent)
  const span = tracer.startSpan(
    `answer ${subject}`,
    { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'nats', 'messaging.operation.type': 'process', 'messaging.destination.name': subject } },
    parent,
  )
  return runInside(parent, span, answer)
}

/** Runs `work` with `span` active (under `parent`), and ends the span with its outcome. */
function runInside(parent: Context, span: Span, work: () => Promise<void>): Promise<void> {
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      await work()
    } catch (error) {
      failed(span, error)
      throw error
    } finally {
      span.end()
    }
  })
}
