/** A built file named by its content (`app-LL3DZCGI.js`, `styles-82QGAJSGVR.css`, `chunk-…`, their maps). */
const HASHED = /-[A-Z0-9]{8,10}\.(js|css)(\.map)?$/

/**
 * How long a browser may keep a page file (docs/decisions/web.md): a content-hashed file never changes under
 * its name, so a year and `immutable`; anything else (the HTML that names them, the icon) is revalidated.
 */
export function cacheControlOf(path: string): string {
  return HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache'
}
