/** A failure that retrying cannot fix: the message goes straight to the dead-letter subject. */
export class PermanentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'PermanentError'
  }
}

/** Publishing failed because the bus did not acknowledge in time or is unreachable: try again later. */
export class BusUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'BusUnavailableError'
  }
}

/** A message body did not match its contract. */
export class ContractViolationError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ContractViolationError'
  }
}

/**
 * The message cannot be handled yet, for a reason bounded by its own data (an entry record waiting for a
 * broker session, decided by the record's age): nak'ed with backoff and never dead-lettered, whatever the
 * delivery count. The handler that throws it must itself stop throwing it in bounded time.
 */
export class RetryLaterError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RetryLaterError'
  }
}
