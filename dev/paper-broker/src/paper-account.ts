export interface PaperAccount {
  /** Login name (`name` in the access-token request). */
  name: string
  password: string
  /** Tradovate's numeric user id and the trading account. */
  userId: number
  accountId: number
  accountName: string
}

/** A request as the broker saw it, for a test's `onRequest` hook and `requests` log (never a password). */
export interface SeenRequest {
  transport: 'rest' | 'ws'
  endpoint: string
  /** The parsed body (REST login: without the password). */
  body: unknown
  /** The login name of the socket's session or of the login request, when known. */
  name: string | null
  /** Whether the request carried a penalty ticket. */
  ticket: boolean
}
