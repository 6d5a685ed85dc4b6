/** What the bus tells about its consumers as it happens (a service turns it into metrics). */
export interface BusObserver {
  /** A message came to `durable` again (its delivery count above 1): a handler failed or its ack was late. */
  redelivered(durable: string): void
  /** `durable` moved a message of `subject` (a contract subject) to the dead letters. */
  deadLettered(durable: string, subject: string): void
}

export const noObserver: BusObserver = {
  redelivered: () => undefined,
  deadLettered: () => undefined,
}

/** One running consumer as the server counts it. */
export interface ConsumerState {
  /** Contract stream name (`ALERTS`). */
  stream: string
  durable: string
  /** Messages in the stream the consumer has not been given yet (its lag). */
  pending: number
  /** Messages given out and not yet acknowledged. */
  ackPending: number
  /** Of those, messages given out more than once. */
  redelivered: number
}
