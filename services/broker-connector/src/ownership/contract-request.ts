// Core NATS request and reply between connector instances, both ends held to a TypeBox contract. Shared by
// the feed-command and entry relays: a reply the sender does not accept (invalid, empty) makes it retry.
import type { Validation } from '@signals/contracts'
import type { Bus } from '@signals/bus'
import type { Logger } from '../consumers/close-trades.ts'

interface Checked<T> {
  validate(value: unknown): Validation<T>
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Sends `request` as JSON to `subject` (in the bus namespace); the reply when it holds to `reply`, else null. */
export async function requestByContract<T>(bus: Bus, subject: string, request: unknown, reply: Checked<T>, timeoutMs: number): Promise<T | null> {
  const message = await bus.nc.request(bus.subject(subject), encoder.encode(JSON.stringify(request)), { timeout: timeoutMs })
  const validation = reply.validate(JSON.parse(decoder.decode(message.data)))
  return validation.ok ? validation.value : null
}

export interface ServedRelay {
  /** Names the relay in its subscription error log. */
  relay: string
  /** The error when a request does not hold to its contract. */
  invalidRequest: string
  /** The warning when answering failed (the sender gets an empty reply and retries). */
  failed: string
}

/** Answers requests on `subject` (in the bus namespace) that hold to `request` with what `answer` makes of them. */
export function serveByContract<Request, Reply>(
  bus: Bus,
  subject: string,
  request: Checked<Request>,
  answer: (request: Request) => Promise<Reply>,
  logger: Logger,
  texts: ServedRelay,
  /** A queue group: one subscriber of the group answers each request (any instance may). */
  queue?: string,
): { unsubscribe(): void } {
  return bus.nc.subscribe(bus.subject(subject), {
    ...(queue === undefined ? {} : { queue }),
    callback: (error, message) => {
      if (error) return logger.warn({ err: error }, `${texts.relay} subscription error`)
      void (async () => {
        const validation = request.validate(JSON.parse(decoder.decode(message.data)))
        if (!validation.ok) throw new Error(texts.invalidRequest)
        message.respond(encoder.encode(JSON.stringify(await answer(validation.value))))
      })().catch((failure: unknown) => {
        // An empty answer is no reply the sender accepts: its message comes back later.
        logger.warn({ err: failure }, texts.failed)
        message.respond(new Uint8Array())
      })
    },
  })
}
