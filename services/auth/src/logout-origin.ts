/**
 * Why a sign-out request is refused, or null. Signing someone out is a state change, so a request another
 * site made is refused; everything else signs out (issue 25):
 * - `Sec-Fetch-Site: same-origin` (our own pages) and `none` (typed in the address bar, a bookmark) sign out;
 * - `cross-site` and `same-site` are refused: a sibling host under the same registrable domain may be
 *   somebody else's (hosted pages), and nothing of ours signs out from one;
 * - no `Sec-Fetch-Site` (curl, scripts, browsers before 2023) signs out, unless the browser says where the
 *   request came from (`Origin`, else `Referer`) and that is another origin. Older browsers send the
 *   Referer on a link from another site; a bookmark or a typed address sends none.
 * Any method is judged by its Origin first, as DESIGN decision 14 judges every write. The cookie is
 * SameSite=Lax, so another site's image or script never carries it; a top-level link from another site does,
 * and that is what the check stops.
 */
export function logoutRefusal(headers: Record<string, string | string[] | undefined>, publicOrigin: string): { status: 403; error: string } | null {
  return fromAnotherSite(headers, publicOrigin) ? { status: 403, error: 'Cross-site sign out refused: sign out from this site' } : null
}

function fromAnotherSite(headers: Record<string, string | string[] | undefined>, publicOrigin: string): boolean {
  const origin = headers.origin
  if (typeof origin === 'string') return origin !== publicOrigin
  const site = headers['sec-fetch-site']
  if (site !== undefined) return site !== 'same-origin' && site !== 'none'
  const referer = headers.referer
  return typeof referer === 'string' && originOf(referer) !== publicOrigin
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}
