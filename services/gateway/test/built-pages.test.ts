import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import t from 'tap'
import { buildWeb } from '../scripts/build-web.ts'
import { build } from './helper.ts'

// The built pages as the gateway serves them (docs/decisions/web.md): hashed scripts and stylesheet cached for
// a year, the HTML revalidated, each sent precompressed to a browser that accepts it.
const out = await mkdtemp(path.join(tmpdir(), 'gateway-built-pages-'))
const built = await buildWeb(out)
const { app } = await build(t, {}, { publicDir: out })
const login = await app.inject({ method: 'GET', url: '/login.html' })
const script = /src="(login-[A-Z0-9]+\.js)"/.exec(login.body)?.[1]
const styles = /href="(styles-[A-Z0-9]+\.css)"/.exec(login.body)?.[1]

t.test('the HTML names the hashed files and is revalidated', async (t) => {
  t.equal(login.statusCode, 200)
  t.equal(login.headers['cache-control'], 'no-cache')
  t.ok(script, 'the login page loads its hashed script')
  t.ok(styles, 'and the hashed stylesheet')
  t.ok(built.files.some((file) => file.name === script))
})

t.test('hashed files are cached for a year, immutable', async (t) => {
  for (const url of [`/${script}`, `/${styles}`]) {
    const response = await app.inject({ method: 'GET', url })
    t.equal(response.statusCode, 200, url)
    t.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable', url)
  }
})

t.test('sent brotli or gzip as the browser accepts, the same bytes once decoded', async (t) => {
  const plain = await app.inject({ method: 'GET', url: `/${script}` })
  t.equal(plain.headers['content-encoding'], undefined, 'no encoding asked, none given')
  const br = await app.inject({ method: 'GET', url: `/${script}`, headers: { 'accept-encoding': 'br, gzip' } })
  t.equal(br.headers['content-encoding'], 'br')
  t.match(String(br.headers['content-type']), /javascript/)
  t.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body)
  const gzip = await app.inject({ method: 'GET', url: `/${script}`, headers: { 'accept-encoding': 'gzip' } })
  t.equal(gzip.headers['content-encoding'], 'gzip')
  t.equal(gunzipSync(gzip.rawPayload).toString(), plain.body)
  t.ok(br.rawPayload.length < plain.rawPayload.length, 'smaller on the wire')
})

t.test('the bundle carries nothing server-side (the API types are type-only imports)', async (t) => {
  for (const file of built.files.filter((file) => file.name.endsWith('.js'))) {
    const text = (await app.inject({ method: 'GET', url: `/${file.name}` })).body
    t.notMatch(text, /typebox|Type\.Object|node:/, file.name)
  }
})

t.test('the rate-limited page the gateway writes itself loads the hashed stylesheet (issue 25)', async (t) => {
  const limited = await build(t, { AUTH_RATE_LIMIT: '1', AUTH_URL: 'http://127.0.0.1:9' }, { publicDir: out })
  const navigate = () => limited.app.inject({ method: 'GET', url: '/auth/google', headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate' } })
  await navigate()
  const page = await navigate()
  t.equal(page.statusCode, 429)
  const href = /<link rel="stylesheet" href="([^"]+)"/.exec(page.body)?.[1]
  t.equal(href, `/${styles}`, 'the stylesheet the built pages use')
  const stylesheet = await limited.app.inject({ method: 'GET', url: String(href) })
  t.equal(stylesheet.statusCode, 200, 'and it exists')
  t.match(String(stylesheet.headers['content-type']), /^text\/css/)
})
