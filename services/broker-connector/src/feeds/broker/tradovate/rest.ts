import { ACCESS_TOKEN_PATH, RENEW_TOKEN_PATH, errorTextOf, isAccessTokenResponse, penaltyOf, type AccessTokenRequest, type AccessTokenResponse } from '@signals/tradovate-wire'
import { BrokerError, type BrokerLogin } from '../broker-adapter.ts'
import { sendHonouringWaits, type Attempt, type PenaltyMemo, type RetryPolicy } from './retry-policy.ts'

/** Seconds of a `Retry-After` header, as milliseconds, or null. */
function retryAfterMs(response: Response): number | null {
  const value = Number(response.headers.get('retry-after'))
  return Number.isFinite(value) && value > 0 ? value * 1000 : null
}

/**
 * Classifies a REST answer of the auth endpoints. Tradovate answers a refusal and a penalty with HTTP 200,
 * so the body decides first; then 429 and 5xx are waits, 401/403/400 a refusal, anything else unavailable.
 */
async function classify(response: Response, policy: RetryPolicy, what: string): Promise<Attempt<AccessTokenResponse>> {
  const body: unknown = await response.json().catch(() => null)
  const penalty = penaltyOf(body)
  if (penalty) return { penalty }
  if (response.status === 429) return { wait: { ms: retryAfterMs(response) ?? policy.rateLimitWaitMs, why: 'HTTP 429' } }
  if (response.status >= 500) return { wait: { ms: retryAfterMs(response) ?? policy.serverErrorWaitMs, why: `HTTP ${response.status}` } }
  const errorText = errorTextOf(body)
  if (response.ok && errorText) return { error: new BrokerError('credentials_refused', `broker refused the ${what}: ${errorText.slice(0, 200)}`) }
  if (response.ok && isAccessTokenResponse(body)) return { ok: body }
  if ([400, 401, 403].includes(response.status)) return { error: new BrokerError('credentials_refused', `broker refused the ${what} (HTTP ${response.status}${errorText ? `: ${errorText.slice(0, 200)}` : ''})`) }
  return { error: new BrokerError('unavailable', `broker answered the ${what} with HTTP ${response.status}`) }
}

async function post(url: string, init: RequestInit, timeoutMs: number): Promise<Response | BrokerError> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    return new BrokerError('unavailable', `broker unreachable: ${(error as Error).name === 'TimeoutError' ? 'timed out' : 'connection failed'}`)
  }
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' }

/**
 * `POST /auth/accesstokenrequest`, honouring penalty tickets (resent with `p-ticket` in the body), 429 and
 * 5xx. `memo` carries a ticket left over from a login that gave up waiting into the next login.
 */
/**
 * A login of a broker that speaks Tradovate's wire, Tradovate itself or the development paper broker: the
 * paper broker's fields, the wider of the two (the API client fields may be null), whichever broker it is.
 */
export type TradovateLogin = Omit<BrokerLogin<'paper'>, 'broker'>

export function requestAccessToken(restUrl: string, login: TradovateLogin, policy: RetryPolicy, timeoutMs: number, memo?: PenaltyMemo): Promise<AccessTokenResponse> {
  const body: AccessTokenRequest = {
    name: login.username,
    password: login.password,
    appId: login.appId,
    appVersion: login.appVersion,
    cid: login.cid,
    sec: login.sec,
    deviceId: login.deviceId,
  }
  return sendHonouringWaits(policy, 'login', async (ticket) => {
    const response = await post(`${restUrl}/${ACCESS_TOKEN_PATH}`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(ticket ? { ...body, 'p-ticket': ticket } : body) }, timeoutMs)
    return response instanceof BrokerError ? { error: response } : classify(response, policy, 'login')
  }, memo)
}

/**
 * `GET /auth/renewaccesstoken` with the current token: a new token and expiry for the same session. A GET has
 * no body for a penalty ticket, so the resend is a POST carrying `{"p-ticket"}` (the endpoint takes both).
 */
export function renewAccessToken(restUrl: string, token: string, policy: RetryPolicy, timeoutMs: number): Promise<AccessTokenResponse> {
  const headers = { ...JSON_HEADERS, authorization: `Bearer ${token}` }
  return sendHonouringWaits(policy, 'token renewal', async (ticket) => {
    const init: RequestInit = ticket ? { method: 'POST', headers, body: JSON.stringify({ 'p-ticket': ticket }) } : { method: 'GET', headers }
    const response = await post(`${restUrl}/${RENEW_TOKEN_PATH}`, init, timeoutMs)
    return response instanceof BrokerError ? { error: response } : classify(response, policy, 'token renewal')
  })
}
