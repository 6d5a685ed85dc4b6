import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream'

/** JetStream error codes the client library does not name (nats-server's errors.json). */
const STREAM_NAME_IN_USE = 10058
const CONSUMER_NAME_IN_USE = 10013
const CONSUMER_ALREADY_EXISTS = 10148

/**
 * A key-value compare-and-set refused: `create` on a key that holds a value, or `update` / `delete` with a
 * revision the key has moved on from (JetStream's wrong-last-sequence codes).
 */
export function isWrongRevision(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamWrongLastSequence || error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  )
}

/** Creating a stream or a durable consumer that another instance created first. */
export function isAlreadyCreated(error: unknown): boolean {
  return error instanceof JetStreamApiError && [STREAM_NAME_IN_USE, CONSUMER_NAME_IN_USE, CONSUMER_ALREADY_EXISTS].includes(error.code)
}
