import { createHash } from 'node:crypto'

/** Escapes text for HTML element content and double-quoted attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

const STYLE = `
:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f2f4f7;color:#1d2433}
@media (prefers-color-scheme:dark){body{background:#141821;color:#e6e9ef}main{background:#1d2330!important}}
main{width:min(24rem,92vw);background:#fff;border-radius:12px;padding:2rem;box-shadow:0 2px 12px rgba(0,0,0,.12)}
h1{font-size:1.35rem;margin:0 0 .25rem}
p.note{margin:0 0 1.25rem;font-size:.9rem;opacity:.75}
p.error{background:#fdecec;color:#9b1c1c;border-radius:6px;padding:.6rem .8rem;font-size:.9rem}
label{display:block;font-size:.9rem;margin:.9rem 0 .3rem}
label.check{display:flex;gap:.5rem;align-items:center}
input[type=email],input[type=text]{box-sizing:border-box;width:100%;padding:.6rem .7rem;font-size:1rem;border:1px solid #b8c0cc;border-radius:6px}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{flex:1;padding:.65rem;font-size:1rem;border-radius:6px;border:1px solid #1a56db;cursor:pointer}
button.primary{background:#1a56db;color:#fff}
button.secondary{background:transparent;color:inherit;border-color:#b8c0cc}
pre{white-space:pre-wrap;word-break:break-word}
`

/** Pages carry one inline style sheet and nothing else; the policy allows exactly that sheet. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ')

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`
}

export interface SignInForm {
  uid: string
  clientName: string
  email?: string
  name?: string
  emailVerified?: boolean
  error?: string
}

/** The interactive sign-in: any e-mail signs in; the account is created on the spot. */
export function signInPage(form: SignInForm): string {
  const uid = encodeURIComponent(form.uid)
  const verified = form.emailVerified ?? true
  return page(
    'Sign in: development provider',
    `<h1>Sign in</h1>
<p class="note">Development OpenID Connect provider for ${escapeHtml(form.clientName)}. Type any e-mail: no password.</p>
${form.error === undefined ? '' : `<p class="error" role="alert">${escapeHtml(form.error)}</p>`}
<form id="sign-in" method="post" action="/interaction/${uid}/login">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" required maxlength="254" autocomplete="email" autofocus value="${escapeHtml(form.email ?? '')}">
<label for="name">Display name (optional)</label>
<input id="name" name="name" type="text" maxlength="255" autocomplete="name" value="${escapeHtml(form.name ?? '')}">
<label class="check"><input id="email_verified" name="email_verified" type="checkbox" value="true"${verified ? ' checked' : ''}> E-mail verified</label>
<div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>
<form id="cancel" method="post" action="/interaction/${uid}/abort">
<div class="actions"><button class="secondary" type="submit">Cancel</button></div>
</form>`,
  )
}

export function errorPage(title: string, details: Record<string, string>): string {
  const lines = Object.entries(details)
    .map(([key, value]) => `<pre><strong>${escapeHtml(key)}</strong>: ${escapeHtml(value)}</pre>`)
    .join('\n')
  return page(title, `<h1>${escapeHtml(title)}</h1>\n${lines}`)
}

/** RP-initiated logout confirmation. `form` is oidc-provider's own hidden form (it holds the xsrf token). */
export function logoutPage(form: string): string {
  return page(
    'Sign out',
    `<h1>Sign out of the development provider?</h1>
${form}
<div class="actions"><button class="primary" type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button>
<button class="secondary" type="submit" form="op.logoutForm">Stay signed in</button></div>`,
  )
}

export function signedOutPage(): string {
  return page('Signed out', '<h1>Signed out</h1>\n<p class="note">You are signed out of the development provider.</p>')
}

/** A generated avatar, so the `picture` claim points at something real that needs no external host. */
export function avatarSvg(sub: string, initial: string): string {
  const hue = parseInt(sub.slice(0, 6), 16) % 360
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">
<rect width="96" height="96" rx="48" fill="hsl(${hue} 55% 45%)"/>
<text x="48" y="62" font-family="sans-serif" font-size="44" fill="#fff" text-anchor="middle">${escapeHtml(initial)}</text>
</svg>`
}
