// Core NATS (no JetStream) between services: request/reply and notices, both ends held to a TypeBox
// contract. Every service's core NATS goes through here (docs/decisions/consumers.md): what is sent is
// checked before it leaves, what arrives is checked before a handler sees it.
import { headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/nats-core'
import type { Static, TSchema } from 'typebox'
import type { Contract } from '@signals/contracts'
import type { BusLogger } from './bus-logger.ts'
import { TRACEPARENT, tracerFor } from '@signals/telemetry'
import { BusUnavailableError, ContractViolationError } from './errors.ts'
import { tracedAnswer, tracedRequest } from './tracing.ts'

/** What core messaging needs of the bus (the Bus class has it). */
export interface CoreBus {
  readonly nc: NatsConnection
  subject(name: string): string
  /** The service using the bus: names its spans' tracer (tracing on only). */
  readonly service?: string
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The headers carrying a span's trace context (none when there is no span). */
function traceHeaders(traceparent: string | undefined): MsgHdrs | undefined {
  if (traceparent === undefined) return undefined
  const headers = natsHeaders()
  headers.set(TRACEPARENT, traceparent)
  return headers
}

function encodeChecked<S extends TSchema>(contract: Contract<S>, payload: Static<S>, what: string): Uint8Array {
  const issue = contract.problem(payload)
  if (issue !== null) throw new ContractViolationError(`${what} does not hold to its contract: ${issue}`)
  return encoder.encode(JSON.stringify(payload))
}

/** The payload when `data` is JSON holding to `contract`, else null. */
function decodeChecked<S extends TSchema>(contract: Contract<S>, data: Uint8Array): Static<S> | null {
  if (data.length === 0) return null
  try {
    const validation = contract.validate(JSON.parse(decoder.decode(data)))
    return validation.ok ? validation.value : null
  } catch {
    return null
  }
}

/**
 * Sends `payload` to `subject` (in the bus namespace) and returns the reply when it holds to `reply`, else
 * null (an empty answer is a responder's "could not", an invalid one a peer's fault). No answer in time or
 * no responder at all is a BusUnavailableError: a dependency down, which a durable consumer waits out.
 * With tracing on the request is a span of the active trace, its `traceparent` in the message's headers.
 */
export async function requestByContract<Q extends TSchema, R extends TSchema>(
  bus: CoreBus,
  subject: string,
  request: Contract<Q>,
  payload: Static<Q>,
  reply: Contract<R>,
  timeoutMs: number,
): Promise<Static<R> | null> {
  const data = encodeChecked(request, payload, `request on ${subject}`)
  const send = (headers?: MsgHdrs) => bus.nc.request(bus.subject(subject), data, { timeout: timeoutMs, headers })
  const tracer = tracerFor(bus.service ?? 'bus')
  let message
  try {
    message = await (tracer === null ? send() : tracedRequest(tracer, subject, (traceparent) => send(traceHeaders(traceparent))))
  } catch (error) {
    throw new BusUnavailableError(`no answer on ${subject} within ${timeoutMs} ms: ${(error as Error).message}`, { cause: error })
  }
  return decodeChecked(reply, message.data)
}

export interface ServedTexts {
  /** Names the responder in its subscription error log. */
  answerer: string
  /** The error when a request does not hold to its contract. */
  invalidRequest: string
  /** The warning when answering failed (the sender gets an empty reply and retries). */
  failed: string
}

/**
 * Answers requests on `subject` (in the bus namespace) that hold to `request` with what `answer` makes of
 * them, checked against `reply`. A request that does not hold, or an answer that fails, gets an empty
 * reply: no reply the sender accepts, so its message comes back later. `queue`: one subscriber of the
 * group answers each request (any instance may). With tracing on `answer` runs in a span continuing the
 * requester's trace (its `traceparent` header).
 */
export function serveByContract<Q extends TSchema, R extends TSchema>(
  bus: CoreBus,
  subject: string,
  contracts: { request: Contract<Q>; reply: Contract<R> },
  answer: (request: Static<Q>) => Promise<Static<R>>,
  logger: Pick<BusLogger, 'warn'>,
  texts: ServedTexts,
  queue?: string,
): { unsubscribe(): void } {
  return bus.nc.subscribe(bus.subject(subject), {
    ...(queue === undefined ? {} : { queue }),
    callback: (error, message) => {
      if (error) return logger.warn({ err: error }, `${texts.answerer} subscription error`)
      const respond = async () => {
        const request = decodeChecked(contracts.request, message.data)
        if (request === null) throw new Error(texts.invalidRequest)
        message.respond(encodeChecked(contracts.reply, await answer(request), `reply on ${subject}`))
      }
      const tracer = tracerFor(bus.service ?? 'bus')
      void (tracer === null ? respond() : tracedAnswer(tracer, subject, message.headers?.get(TRACEPARENT), respond)).catch((failure: unknown) => {
        logger.warn({ err: failure }, texts.failed)
        message.respond(new Uint8Array())
      })
    },
  })
}

/**
 * Publishes a notice (core NATS: at most once, for what costs nothing when lost, e.g. "refetch") after
 * checking it against its contract.
 */
export function publishNotice<S extends TSchema>(bus: CoreBus, subject: string, contract: Contract<S>, payload: Static<S>): void {
  bus.nc.publish(bus.subject(subject), encodeChecked(contract, payload, `notice on ${subject}`))
}

/**
 * Receives notices on `subject` (wildcards allowed, in the bus namespace); only those holding to
 * `contract` reach `handler`, with the subject they came on (namespaced, as the server gave it).
 */
export function subscribeNotices<S extends TSchema>(
  bus: CoreBus,
  subject: string,
  contract: Contract<S>,
  handler: (notice: Static<S>, subject: string) => void,
  logger: Pick<BusLogger, 'warn'>,
): { unsubscribe(): void } {
  return bus.nc.subscribe(bus.subject(subject), {
    callback: (error, message) => {
      if (error) return logger.warn({ err: error, subject }, 'notice subscription error')
      const notice = decodeChecked(contract, message.data)
      if (notice === null) return logger.warn({ subject: message.subject }, 'notice does not hold to its contract; dropped')
      handler(notice, message.subject)
    },
  })
}
