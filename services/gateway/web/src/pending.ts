// Names the account that waits, so someone signed in with the wrong address can tell and sign out; and
// moves on by itself once an administrator approves it (a poll of /auth/me every few seconds: the page has
// no live socket, which is for approved users only).
import type { ResponseOf } from './api-routes.ts'
import { bannedLoginUrl } from './banned.ts'
import { byId } from './dom.ts'

const POLL_MS = 3000

type Me = ResponseOf<'GET /auth/me'> | { signedOut: true } | { banned: true; reason: unknown } | null

// Not through api.ts: this page reads a 401 or a ban as news to act on at its own pace, not a reason to leave at once.
async function me(): Promise<Me> {
  const response = await fetch('/auth/me', { credentials: 'same-origin', headers: { accept: 'application/json' } })
  if (response.status === 401) return { signedOut: true }
  if (response.status === 403) {
    const refusal = (await response.json().catch(() => null)) as { error?: unknown; reason?: unknown } | null
    if (refusal?.error === 'Account banned') return { banned: true, reason: refusal.reason }
  }
  return response.ok ? ((await response.json()) as ResponseOf<'GET /auth/me'>) : null
}

try {
  const body = await me()
  if (body !== null && 'user' in body && body.user.email) {
    const who = byId('who')
    who.textContent = `Signed in as ${body.user.email}.`
    who.hidden = false
  }
} catch {
  // The page says all it must without the name.
}

async function poll(): Promise<void> {
  try {
    const body = await me()
    if (body !== null && 'signedOut' in body) return window.location.assign('/login.html?error=session')
    if (body !== null && 'banned' in body) return window.location.assign(bannedLoginUrl(body.reason))
    if (body !== null && 'user' in body && body.user.approved) return window.location.assign('/')
  } catch {
    // Offline for a moment: try again at the next tick.
  }
  setTimeout(() => void poll(), POLL_MS)
}
setTimeout(() => void poll(), POLL_MS)
