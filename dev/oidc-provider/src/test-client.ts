/**
 * Signs in through the development provider the way a browser would, over plain HTTP: follows its
 * redirects with a small cookie jar, fills in the sign-in form (or presses Cancel), and stops at the
 * redirect back to the client. For flow tests of a relying party; it knows nothing of the provider's
 * internals beyond the form it serves.
 */
export interface SignInThroughProviderOptions {
  /** Where the relying party sent the browser: the provider's authorization endpoint with its parameters. */
  authorizationUrl: string
  email: string
  name?: string
  /** The form's "e-mail verified" checkbox; checked unless false. */
  emailVerified?: boolean
  /** Press Cancel instead of Sign in: the client gets an `access_denied` error. */
  deny?: boolean
}

const MAX_HOPS = 12

interface StoredCookie {
  name: string
  value: string
  path: string
}

/** Just enough of a cookie jar for one origin's flow: name, value, path, deletion. */
class CookieJar {
  readonly #byHost = new Map<string, Map<string, StoredCookie>>()

  store(url: URL, response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';')
      const separator = pair.indexOf('=')
      if (separator <= 0) continue
      const name = pair.slice(0, separator).trim()
      const value = pair.slice(separator + 1).trim()
      let path = '/'
      let expired = false
      for (const attribute of attributes) {
        const [key = '', raw = ''] = attribute.split('=')
        const lower = key.trim().toLowerCase()
        if (lower === 'path') path = raw.trim() || '/'
        if (lower === 'max-age' && Number(raw) <= 0) expired = true
        if (lower === 'expires' && Date.parse(raw) <= Date.now()) expired = true
      }
      const cookies = this.#byHost.get(url.host) ?? new Map<string, StoredCookie>()
      this.#byHost.set(url.host, cookies)
      const key = `${path}\u0000${name}`
      if (expired) cookies.delete(key)
      else cookies.set(key, { name, value, path })
    }
  }

  headerFor(url: URL): string | undefined {
    const cookies = [...(this.#byHost.get(url.host)?.values() ?? [])].filter(
      (cookie) => url.pathname === cookie.path || url.pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
    )
    return cookies.length === 0 ? undefined : cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
  }
}

export async function signInThroughProvider(options: SignInThroughProviderOptions): Promise<{ callbackUrl: string }> {
  const start = new URL(options.authorizationUrl)
  const redirectUri = start.searchParams.get('redirect_uri')
  const isCallback = (url: URL) =>
    redirectUri !== null ? `${url.origin}${url.pathname}` === redirectUri.split('?')[0] : url.origin !== start.origin
  const jar = new CookieJar()

  const request = async (url: URL, form?: URLSearchParams) => {
    const headers: Record<string, string> = { accept: 'text/html' }
    const cookie = jar.headerFor(url)
    if (cookie !== undefined) headers.cookie = cookie
    if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded'
    const response = await fetch(url, { method: form === undefined ? 'GET' : 'POST', headers, body: form, redirect: 'manual' })
    jar.store(url, response)
    return response
  }

  let url = start
  let response = await request(url)
  let submitted = false
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel()
      url = new URL(location, url)
      if (isCallback(url)) return { callbackUrl: url.href }
      response = await request(url)
      continue
    }
    const page = await response.text()
    if (response.status !== 200 || submitted) throw unexpected(url, response.status, page)
    const action = formAction(page, options.deny === true ? 'cancel' : 'sign-in')
    if (action === undefined) throw unexpected(url, response.status, page)
    const form = new URLSearchParams()
    if (options.deny !== true) {
      form.set('email', options.email)
      if (options.name !== undefined) form.set('name', options.name)
      if (options.emailVerified !== false) form.set('email_verified', 'true')
    }
    submitted = true
    url = new URL(action, url)
    response = await request(url, form)
  }
  throw new Error(`signInThroughProvider: more than ${MAX_HOPS} redirects, last at ${url.href}`)
}

function formAction(page: string, id: string): string | undefined {
  const tag = new RegExp(`<form\\b[^>]*\\bid="${id}"[^>]*>`, 'i').exec(page)?.[0]
  const action = tag === undefined ? undefined : /\baction="([^"]*)"/i.exec(tag)?.[1]
  return action?.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&')
}

function unexpected(url: URL, status: number, page: string): Error {
  const text = page.replace(/<style[\s\S]*?<\/style>/gi, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim()
  return new Error(`signInThroughProvider: unexpected ${status} at ${url.origin}${url.pathname}: ${text.slice(0, 300)}`)
}
