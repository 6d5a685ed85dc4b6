// Names the account that waits, so someone signed in with the wrong address can tell and sign out; and
// moves on by itself once an administrator approves it (a poll of /auth/me every few seconds: the page has
// no live socket, which is for approved users only).
import { bannedLoginUrl } from './banned.js'

const POLL_MS = 3000

async function me() {
  const response = await fetch('/auth/me', { credentials: 'same-origin', headers: { accept: 'application/json' } })
  if (response.status === 401) return { signedOut: true }
  if (response.status === 403) {
    const refusal = await response.json().catch(() => null)
    if (refusal?.error === 'Account banned') return { banned: true, reason: refusal.reason }
  }
  return response.ok ? await response.json() : null
}

try {
  const body = await me()
  if (body?.user?.email) {
    const who = document.getElementById('who')
    who.textContent = `Signed in as ${body.user.email}.`
    who.hidden = false
  }
} catch {
  // The page says all it must without the name.
}

async function poll() {
  try {
    const body = await me()
    if (body?.signedOut) return window.location.assign('/login.html?error=session')
    if (body?.banned) return window.location.assign(bannedLoginUrl(body.reason))
    if (body?.user?.approved) return window.location.assign('/')
  } catch {
    // Offline for a moment: try again at the next tick.
  }
  setTimeout(() => void poll(), POLL_MS)
}
setTimeout(() => void poll(), POLL_MS)
