/** Pages anyone may load. */
const PUBLIC_PAGES = new Set(['/login.html'])
/** Pages for a signed-in user whatever their approval. */
const SIGNED_IN_PAGES = new Set(['/pending-approval.html'])

export type PageRule = 'public' | 'signed-in' | 'approved' | 'asset'

/** What a path needs: HTML pages are guarded (spec "initial site access"); styles, scripts and images are not. */
export function pageRule(rawPath: string): PageRule {
  let path: string
  try {
    // The static server decodes the path (`/index%2Ehtml` is index.html): judge the decoded one.
    path = decodeURIComponent(rawPath)
  } catch {
    return 'approved'
  }
  if (PUBLIC_PAGES.has(path)) return 'public'
  if (SIGNED_IN_PAGES.has(path)) return 'signed-in'
  if (path === '/' || path.endsWith('/') || path.endsWith('.html')) return 'approved'
  return 'asset'
}

/** The sign-in page telling a banned user so, with the ban's reason (the page quotes at most 200 characters). */
export function bannedLoginPage(reason: string | null): string {
  const query = new URLSearchParams({ error: 'banned' })
  if (reason !== null && reason.trim() !== '') query.set('reason', reason.trim().slice(0, 200))
  return `/login.html?${query}`
}
