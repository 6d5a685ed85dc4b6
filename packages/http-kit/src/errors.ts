/** An error whose message is safe to show the caller, with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) => new HttpError(400, message, details)
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message)
export const forbidden = (message: string, details?: Record<string, unknown>) => new HttpError(403, message, details)
export const notFound = (message = 'Not found') => new HttpError(404, message)
export const conflict = (message: string) => new HttpError(409, message)
/** A dependency is down: the caller should try again. */
export const serviceUnavailable = (message = 'Service temporarily unavailable, please try again') => new HttpError(503, message)
