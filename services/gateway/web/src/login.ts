// Shows why a sign-in ended here (`?error=<code>`). Only known codes are shown by their own text, and
// all text goes in through textContent: a crafted link cannot put words or markup on this page.
import { byId } from './dom.ts'

const MESSAGES: Record<string, string> = {
  denied: 'Sign-in was cancelled at the provider.',
  provider: 'The sign-in provider returned an error. Please try again.',
  unavailable: 'The sign-in provider cannot be reached right now. Please try again in a moment.',
  expired: 'The sign-in took too long or was started in another browser. Please try again.',
  unverified: 'Your e-mail address is not verified with the provider, so it cannot be used to sign in.',
  profile: 'The provider did not share a usable e-mail address.',
  banned: 'This account may not sign in.',
  session: 'Your session has ended. Please sign in again.',
}

const code = new URLSearchParams(window.location.search).get('error')
if (code !== null) {
  const box = byId('login-error')
  box.textContent = (Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : undefined) ?? 'Sign-in did not complete. Please try again.'
  box.hidden = false
  // A ban's reason, when the link carries one: quoted as the administrator's words, plain text, short.
  const reason = new URLSearchParams(window.location.search).get('reason')
  if (code === 'banned' && reason !== null && reason.trim() !== '') {
    const quoted = document.createElement('span')
    quoted.className = 'ban-reason'
    quoted.textContent = ` The administrator's reason: “${reason.trim().slice(0, 200)}”`
    box.append(quoted)
  }
}
