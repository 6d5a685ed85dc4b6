/**
 * The subset of Tradovate's real-time WebSocket protocol the paper broker speaks (and the connector's
 * client uses). Frames from the server: `o` (open), `h` (heartbeat), `a[...]` (array of JSON messages),
 * `c[code,"reason"]` (close). Requests from the client: `endpoint\nid\nquery\nbody`; `[]` is the
 * client's heartbeat.
 */
export interface WireRequest {
  endpoint: string
  id: number
  query: string
  body: string
}

/** Parses `endpoint\nid\nquery\nbody`; null when the frame is not a request. */
export function parseRequest(frame: string): WireRequest | null {
  const parts = frame.split('\n')
  if (parts.length < 2) return null
  const [endpoint = '', idText = '', query = '', ...body] = parts
  const id = Number(idText)
  if (!endpoint || !Number.isSafeInteger(id)) return null
  return { endpoint, id, query, body: body.join('\n') }
}

export const formatRequest = (endpoint: string, id: number, body = '', query = ''): string => `${endpoint}\n${id}\n${query}\n${body}`

/** A response to request `i` with status `s` and data `d`. */
export interface WireResponse {
  i: number
  s: number
  d?: unknown
}

/** A server push (`e`: "props", "md", "shutdown"...). */
export interface WireEvent {
  e: string
  d: unknown
}

export const arrayFrame = (messages: readonly (WireResponse | WireEvent)[]): string => `a${JSON.stringify(messages)}`
export const closeFrame = (code: number, reason: string): string => `c${JSON.stringify([code, reason])}`

/** Parses a server frame into its kind and, for `a`, its messages. */
export function parseServerFrame(frame: string): { kind: 'open' | 'heartbeat' | 'array' | 'close' | 'unknown'; messages: unknown[] } {
  const kind = frame[0]
  if (kind === 'o') return { kind: 'open', messages: [] }
  if (kind === 'h') return { kind: 'heartbeat', messages: [] }
  if (kind === 'a' || kind === 'c') {
    try {
      const parsed: unknown = JSON.parse(frame.slice(1))
      if (Array.isArray(parsed)) return { kind: kind === 'a' ? 'array' : 'close', messages: parsed }
    } catch {
      // fall through
    }
  }
  return { kind: 'unknown', messages: [] }
}

/** Body of `POST /auth/accesstokenrequest`. */
export interface AccessTokenRequest {
  name: string
  password: string
  appId?: string | null
  appVersion?: string | null
  cid?: string | number | null
  sec?: string | null
  deviceId?: string | null
}

/** A successful access-token answer (the fields the connector reads). */
export interface AccessTokenResponse {
  accessToken: string
  mdAccessToken: string
  expirationTime: string
  userStatus: string
  userId: number
  name: string
  hasLive: boolean
}
