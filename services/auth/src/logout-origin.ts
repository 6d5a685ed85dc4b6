/**
 * Why a sign-out request is refused, or null. Signing someone out is a state change: a POST must not come
 * from another site (Origin, else Sec-Fetch-Site, as DESIGN decision 14 judges every write; a client that
 * sends neither is not a browser riding a cookie), and a GET only counts when the browser says our own
 * page sent it (`Sec-Fetch-Site: same-origin`), so an `<img src=/auth/logout>` elsewhere does nothing.
 */
export function logoutRefusal(
  method: string,
  headers: Record<string, string | string[] | undefined>,
  publicOrigin: string,
): { status: 403 | 405; error: string } | null {
  const site = headers['sec-fetch-site']
  if (method === 'GET' || method === 'HEAD') {
    return site === 'same-origin' ? null : { status: 405, error: 'Sign out with a POST from this site' }
  }
  const origin = headers.origin
  const crossSite = origin !== undefined ? origin !== publicOrigin : site !== undefined && site !== 'same-origin'
  return crossSite ? { status: 403, error: 'Cross-site sign out refused' } : null
}
