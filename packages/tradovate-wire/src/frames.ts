/**
 * Tradovate's real-time WebSocket framing (SockJS-like). Server frames: `o` (open), `h` (heartbeat),
 * `a[...]` (a JSON array of responses and events), `c[code,"reason"]` (close). Client frames: a request
 * `endpoint\nid\nquery\nbody` (empty parts kept as blank lines) and `[]`, the client's heartbeat.
 * Sources: tradovate/example-api-js tutorial/WebSockets (EX-06, EX-07); partner.tradovate.com web-sockets.
 */

export const OPEN_FRAME = 'o'
export const HEARTBEAT_FRAME = 'h'
/** What the client sends about every 2.5 s to keep the socket alive. */
export const CLIENT_HEARTBEAT = '[]'

export interface WireRequest {
  endpoint: string
  id: number
  query: string
  body: string
}

/** A response to request `i`: status `s` (HTTP-like) and data `d`. */
export interface WireResponse {
  i: number
  s: number
  d?: unknown
}

/** A server push: `e` is "props" (entity changes), "md", "shutdown", "clock"... */
export interface WireEvent {
  e: string
  d: unknown
}

/** Parses `endpoint\nid\nquery\nbody`; null when the frame is not a request. */
export function parseRequest(frame: string): WireRequest | null {
  const parts = frame.split('\n')
  if (parts.length < 2) return null
  const [endpoint = '', idText = '', query = '', ...body] = parts
  const id = Number(idText)
  if (!endpoint || idText === '' || !Number.isSafeInteger(id)) return null
  return { endpoint, id, query, body: body.join('\n') }
}

export const formatRequest = (endpoint: string, id: number, body = '', query = ''): string => `${endpoint}\n${id}\n${query}\n${body}`

export const arrayFrame = (messages: readonly (WireResponse | WireEvent)[]): string => `a${JSON.stringify(messages)}`
export const closeFrame = (code: number, reason: string): string => `c${JSON.stringify([code, reason])}`

export type ServerFrame =
  | { kind: 'open' }
  | { kind: 'heartbeat' }
  | { kind: 'array'; responses: WireResponse[]; events: WireEvent[] }
  | { kind: 'close'; code: number | null; reason: string }
  | { kind: 'unknown' }

/** Parses a server frame; the messages of an `a` frame are split into responses and events. */
export function parseServerFrame(frame: string): ServerFrame {
  const kind = frame[0]
  if (kind === 'o') return { kind: 'open' }
  if (kind === 'h') return { kind: 'heartbeat' }
  if (kind !== 'a' && kind !== 'c') return { kind: 'unknown' }
  let parsed: unknown
  try {
    parsed = JSON.parse(frame.slice(1))
  } catch {
    return { kind: 'unknown' }
  }
  if (!Array.isArray(parsed)) return { kind: 'unknown' }
  if (kind === 'c') return { kind: 'close', code: typeof parsed[0] === 'number' ? parsed[0] : null, reason: typeof parsed[1] === 'string' ? parsed[1] : '' }
  const responses: WireResponse[] = []
  const events: WireEvent[] = []
  for (const message of parsed as unknown[]) {
    if (typeof message !== 'object' || message === null) continue
    const record = message as Record<string, unknown>
    if (typeof record.i === 'number' && typeof record.s === 'number') responses.push({ i: record.i, s: record.s, d: record.d })
    else if (typeof record.e === 'string') events.push({ e: record.e, d: record.d })
  }
  return { kind: 'array', responses, events }
}
