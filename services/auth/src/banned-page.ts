const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)

/** The page a browser gets when its e-mail is banned (DESIGN decision 4): the reason, escaped. */
export function bannedPage(reason: string | null): string {
  const why = reason ? `<p>Reason: <strong>${escapeHtml(reason)}</strong></p>` : ''
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Account banned</title></head>
<body>
<main>
<h1>Account banned</h1>
<p>This account may not sign in.</p>
${why}
<p><a href="/login.html">Back to sign-in</a></p>
</main>
</body>
</html>
`
}
