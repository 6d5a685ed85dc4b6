const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * DESIGN decision 14: a state-changing call must come from our own pages. Browsers send `Origin` on every
 * non-GET fetch and form post (and `Sec-Fetch-Site` too); either naming another site refuses the call.
 * A client that sends neither is not a browser, so it cannot be riding a victim's cookie.
 */
export function isCrossOriginWrite(method: string, headers: Record<string, string | string[] | undefined>, publicOrigin: string): boolean {
  if (SAFE_METHODS.has(method)) return false
  const origin = headers.origin
  if (origin !== undefined) return origin !== publicOrigin
  const site = headers['sec-fetch-site']
  if (site !== undefined) return site !== 'same-origin'
  return false
}
