import { ErrorBody } from '@signals/contracts'

/**
 * What the gateway itself answers under /api: refusals before any upstream is asked (no session, pending,
 * banned, cross-origin write) and routes no service owns. The proxied routes' schemas are the upstreams'.
 */
export const ApiRefusals = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody }
