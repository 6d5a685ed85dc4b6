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
