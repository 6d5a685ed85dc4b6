import { ACCESS_TOKEN_PATH, ENDPOINTS, RENEW_TOKEN_PATH } from '@signals/tradovate-wire'
import type { Interference } from './controls.ts'

const SOCKET_ENDPOINTS: ReadonlySet<string> = new Set(Object.values(ENDPOINTS))
const REST_ENDPOINTS: ReadonlySet<string> = new Set([ACCESS_TOKEN_PATH, RENEW_TOKEN_PATH])
const KINDS = ['penalty', 'captcha', 'rate_limit', 'server_error', 'late', 'unanswered', 'drop', 'delay'] as const
const MAX_MS = 600_000

/** A control asked for over HTTP (`POST /dev/controls`): an interference for the next `count` requests, or a delay. */
export type ControlRequest =
  | { endpoint: string; kind: 'delay'; ms: number }
  | { endpoint: string; interference: Interference; count: number }

type Fields = Record<string, unknown>

const isInt = (value: unknown, min: number, max: number): value is number => Number.isInteger(value) && (value as number) >= min && (value as number) <= max

/** The endpoint named by a body, or the reason it is not one the broker answers. */
export function endpointOf(body: Fields): { endpoint: string } | { error: string } {
  const endpoint = body.endpoint
  if (typeof endpoint !== 'string' || !(SOCKET_ENDPOINTS.has(endpoint) || REST_ENDPOINTS.has(endpoint))) {
    return { error: `endpoint must be one of ${[...SOCKET_ENDPOINTS, ...REST_ENDPOINTS].join(', ')} (no leading slash)` }
  }
  return { endpoint }
}

function flag(body: Fields, name: string): boolean | undefined | { error: string } {
  const value = body[name]
  if (value === undefined || typeof value === 'boolean') return value
  return { error: `${name} must be true or false` }
}

/** The interference a body describes (its `kind` already known), or the reason it is not a valid one. */
function interferenceOf(kind: Exclude<(typeof KINDS)[number], 'delay'>, body: Fields, socket: boolean): Interference | { error: string } {
  if ((kind === 'late' || kind === 'unanswered' || kind === 'drop') && !socket) return { error: `${kind} applies to real-time socket endpoints only` }
  switch (kind) {
    case 'penalty':
      return isInt(body.seconds, 1, 3_600) ? { kind, seconds: body.seconds } : { error: 'seconds must be a whole number from 1 to 3600' }
    case 'captcha':
    case 'rate_limit':
      return { kind }
    case 'server_error': {
      if (body.status !== undefined && !isInt(body.status, 500, 599)) return { error: 'status must be a whole number from 500 to 599' }
      const carriedOut = flag(body, 'carriedOut')
      if (typeof carriedOut === 'object') return carriedOut
      if (carriedOut && !socket) return { error: 'carriedOut applies to real-time socket endpoints only' }
      return { kind, status: body.status as number | undefined, carriedOut }
    }
    case 'late':
    case 'unanswered':
      if (body.afterMs !== undefined && !isInt(body.afterMs, 0, MAX_MS)) return { error: `afterMs must be a whole number from 0 to ${MAX_MS} (omit it to hold the request until released)` }
      return { kind, afterMs: body.afterMs as number | undefined }
    case 'drop': {
      const carriedOut = flag(body, 'carriedOut')
      return typeof carriedOut === 'object' ? carriedOut : { kind, carriedOut }
    }
  }
}

/** Reads `POST /dev/controls`: `{endpoint, kind, count?, ...}`; the reason when it is not valid. */
export function parseControlRequest(value: unknown): ControlRequest | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'the body must be a JSON object {endpoint, kind, ...}' }
  const body = value as Fields
  const named = endpointOf(body)
  if ('error' in named) return named
  const kind = body.kind
  if (typeof kind !== 'string' || !(KINDS as readonly string[]).includes(kind)) return { error: `kind must be one of ${KINDS.join(', ')}` }
  if (kind === 'delay') {
    return isInt(body.ms, 0, MAX_MS) ? { endpoint: named.endpoint, kind, ms: body.ms } : { error: `ms must be a whole number from 0 to ${MAX_MS} (0 removes the delay)` }
  }
  if (body.count !== undefined && !isInt(body.count, 1, 1_000)) return { error: 'count must be a whole number from 1 to 1000' }
  const interference = interferenceOf(kind as Exclude<(typeof KINDS)[number], 'delay'>, body, SOCKET_ENDPOINTS.has(named.endpoint))
  if ('error' in interference) return interference
  return { endpoint: named.endpoint, interference, count: (body.count as number | undefined) ?? 1 }
}
