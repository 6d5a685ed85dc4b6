// Where a banned trader is sent from any page: the sign-in page, which quotes the ban's reason (the
// gateway's answers carry it: a 403 "Account banned" body's `reason`, its own page redirects).

/** The sign-in page saying the account is banned, with the administrator's reason when there is one. */
export function bannedLoginUrl(reason: unknown): string {
  const query = new URLSearchParams({ error: 'banned' })
  if (typeof reason === 'string' && reason.trim() !== '') query.set('reason', reason.trim().slice(0, 200))
  return `/login.html?${query}`
}
