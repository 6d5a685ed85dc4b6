// Names the account that waits, so someone signed in with the wrong address can tell and sign out.
try {
  const response = await fetch('/auth/me', { credentials: 'same-origin', headers: { accept: 'application/json' } })
  const body = response.ok ? await response.json() : null
  if (body?.user?.email) {
    const who = document.getElementById('who')
    who.textContent = `Signed in as ${body.user.email}.`
    who.hidden = false
  }
} catch {
  // The page says all it must without the name.
}
