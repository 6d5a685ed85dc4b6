import type { FastifyRequest } from 'fastify'

/**
 * Whether a request is the browser loading a page (typed address, link, redirect during sign-in), which
 * should get a page rather than JSON. `Sec-Fetch-Mode: navigate` says so in current browsers; an older
 * browser that asks for HTML first is taken at its word. The pages' own fetch() calls are never navigations.
 */
export function isBrowserNavigation(request: FastifyRequest): boolean {
  const mode = request.headers['sec-fetch-mode']
  if (mode !== undefined) return mode === 'navigate'
  return /^\s*text\/html/i.test(request.headers.accept ?? '')
}

/**
 * The page a browser gets when it made too many sign-in requests: what happened and when to try again.
 * `stylesheet` is the built stylesheet's file name (built-stylesheet.ts).
 */
export function rateLimitedPage(retryAfterSeconds: number, stylesheet: string): string {
  const wait = retryAfterSeconds === 1 ? '1 second' : `${retryAfterSeconds} seconds`
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Too many sign-in attempts · Signals</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/${stylesheet}"></head>
<body class="centered">
<main class="card narrow">
<h1>Too many sign-in attempts</h1>
<p>This network made more sign-in requests in the last minute than we accept. Nothing is wrong with your account.</p>
<p>Please try again in ${wait}.</p>
<p><a href="/login.html">Back to sign-in</a></p>
</main>
</body>
</html>
`
}
