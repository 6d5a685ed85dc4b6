import t from 'tap'
import * as client from 'openid-client'
import { startDevOidcProvider, subjectFor, ProductionRefusedError } from '../src/index.ts'
import { signInThroughProvider } from '../src/test-client.ts'

const CLIENT_ID = 'test-client'
const CLIENT_SECRET = 'test-client-secret'
const REDIRECT_URI = 'http://127.0.0.1:1/auth/google/callback'

const provider = await startDevOidcProvider({
  clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [REDIRECT_URI] }],
})
t.teardown(() => provider.close())

async function relyingParty(authentication?: client.ClientAuth) {
  return client.discovery(new URL(provider.issuer), CLIENT_ID, CLIENT_SECRET, authentication, {
    execute: [client.allowInsecureRequests],
  })
}

/** What a relying party sends: code flow, PKCE S256, a state. */
async function authorizationRequest(config: client.Configuration, extra: Record<string, string> = {}) {
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  })
  return { url, verifier, state }
}

async function signIn(options: { email: string; name?: string; emailVerified?: boolean }, authentication?: client.ClientAuth) {
  const config = await relyingParty(authentication)
  const { url, verifier, state } = await authorizationRequest(config)
  const { callbackUrl } = await signInThroughProvider({ authorizationUrl: url.href, ...options })
  const tokens = await client.authorizationCodeGrant(config, new URL(callbackUrl), {
    pkceCodeVerifier: verifier,
    expectedState: state,
  })
  const idToken = tokens.claims()
  if (idToken === undefined) throw new Error('no ID token')
  const userinfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub)
  return { idToken, userinfo, callbackUrl }
}

/** The rejection of a promise that must fail (undefined if it resolved, which the assertion then catches). */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  )
}

t.test('discovery advertises the code flow with PKCE S256 and the three scopes', async (t) => {
  const response = await fetch(`${provider.issuer}/.well-known/openid-configuration`)
  t.equal(response.status, 200)
  const metadata = (await response.json()) as Record<string, unknown>
  t.equal(metadata.issuer, provider.issuer)
  t.same(metadata.response_types_supported, ['code'])
  t.same(metadata.code_challenge_methods_supported, ['S256'])
  t.same(metadata.grant_types_supported, ['authorization_code'])
  t.same(metadata.scopes_supported, ['openid', 'email', 'profile'])
  for (const claim of ['sub', 'email', 'email_verified', 'name', 'picture']) {
    t.ok((metadata.claims_supported as string[]).includes(claim), `claims_supported has ${claim}`)
  }
})

t.test('code flow with PKCE: the relying party gets the claims typed into the form', async (t) => {
  const { idToken, userinfo, callbackUrl } = await signIn({ email: 'Trader.One@Example.com', name: 'Trader One' })
  t.ok(callbackUrl.startsWith(`${REDIRECT_URI}?`), 'ends at the redirect URI')
  t.equal(idToken.iss, provider.issuer)
  t.equal(idToken.aud, CLIENT_ID)
  t.equal(idToken.sub, subjectFor('trader.one@example.com'))
  t.match(idToken, { email: 'Trader.One@Example.com', email_verified: true, name: 'Trader One' })
  t.match(idToken.picture, new RegExp(`^${provider.issuer}/avatar/${idToken.sub}\\.svg$`))
  t.same(userinfo, {
    sub: idToken.sub,
    email: 'Trader.One@Example.com',
    email_verified: true,
    name: 'Trader One',
    picture: idToken.picture,
  })

  const avatar = await fetch(String(idToken.picture))
  t.equal(avatar.status, 200)
  t.equal(avatar.headers.get('content-type'), 'image/svg+xml')
  t.match(await avatar.text(), />T<\/text>/, 'the avatar shows the initial')
})

t.test('sub is stable per e-mail, whatever its case, and differs between e-mails', async (t) => {
  const first = await signIn({ email: 'same.person@example.com' })
  const again = await signIn({ email: 'SAME.person@EXAMPLE.com' })
  const other = await signIn({ email: 'someone.else@example.com' })
  t.equal(again.idToken.sub, first.idToken.sub)
  t.not(other.idToken.sub, first.idToken.sub)
  t.equal(first.idToken.name, 'same.person', 'no display name given: the local part stands in')
})

t.test('an unchecked "e-mail verified" box gives email_verified false', async (t) => {
  const { idToken, userinfo } = await signIn({ email: 'unverified@example.com', emailVerified: false })
  t.equal(idToken.email_verified, false)
  t.equal(userinfo.email_verified, false)
})

t.test('interleaved sign-ins for one e-mail each get their own answers', async (t) => {
  const [verified, unverified] = await Promise.all([
    signIn({ email: 'twice@example.com', name: 'Verified', emailVerified: true }),
    signIn({ email: 'twice@example.com', name: 'Unverified', emailVerified: false }),
  ])
  t.match(verified.idToken, { name: 'Verified', email_verified: true })
  t.match(unverified.idToken, { name: 'Unverified', email_verified: false })
  t.equal(verified.idToken.sub, unverified.idToken.sub)
})

t.test('client_secret_basic works as well as client_secret_post', async (t) => {
  const { idToken } = await signIn({ email: 'basic@example.com' }, client.ClientSecretBasic(CLIENT_SECRET))
  t.equal(idToken.email, 'basic@example.com')
})

t.test('Cancel ends in an access_denied error redirect carrying the state', async (t) => {
  const config = await relyingParty()
  const { url, verifier, state } = await authorizationRequest(config)
  const { callbackUrl } = await signInThroughProvider({ authorizationUrl: url.href, email: 'x@example.com', deny: true })
  const params = new URL(callbackUrl).searchParams
  t.equal(params.get('error'), 'access_denied')
  t.equal(params.get('state'), state)
  t.equal(params.get('code'), null)
  const refused = await failure(
    client.authorizationCodeGrant(config, new URL(callbackUrl), { pkceCodeVerifier: verifier, expectedState: state }),
  )
  t.match(refused, { error: 'access_denied' }, 'openid-client reads it as the OAuth error')
})

t.test('PKCE is required, and only S256', async (t) => {
  const config = await relyingParty()
  const withoutPkce = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: 'openid', state: 's1' })
  const refused = await fetch(withoutPkce, { redirect: 'manual' })
  const location = new URL(refused.headers.get('location') ?? '', provider.issuer)
  t.equal(`${location.origin}${location.pathname}`, REDIRECT_URI)
  t.equal(location.searchParams.get('error'), 'invalid_request')
  t.match(location.searchParams.get('error_description'), /PKCE/)

  const plain = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    state: 's2',
    code_challenge: 'a'.repeat(43),
    code_challenge_method: 'plain',
  })
  const plainRefused = new URL((await fetch(plain, { redirect: 'manual' })).headers.get('location') ?? '', provider.issuer)
  t.equal(plainRefused.searchParams.get('error'), 'invalid_request')
})

t.test('a wrong code verifier cannot redeem the code', async (t) => {
  const config = await relyingParty()
  const { url, state } = await authorizationRequest(config)
  const { callbackUrl } = await signInThroughProvider({ authorizationUrl: url.href, email: 'thief@example.com' })
  const refused = await failure(
    client.authorizationCodeGrant(config, new URL(callbackUrl), {
      pkceCodeVerifier: client.randomPKCECodeVerifier(),
      expectedState: state,
    }),
  )
  t.match(refused, { error: 'invalid_grant' })
})

t.test('a redirect URI that is not registered is refused at the provider, never redirected to', async (t) => {
  const config = await relyingParty()
  const { url } = await authorizationRequest(config, { redirect_uri: 'http://evil.example/callback' })
  const response = await fetch(url, { redirect: 'manual' })
  t.equal(response.status, 400)
  t.equal(response.headers.get('location'), null)
  t.match(await response.text(), /redirect_uri did not match/)
})

t.test('the sign-in page: plain HTML under a strict policy, hint escaped, bad e-mail re-asked', async (t) => {
  const config = await relyingParty()
  const { url } = await authorizationRequest(config, { login_hint: '"><script>alert(1)</script>' })
  const start = await fetch(url, { redirect: 'manual' })
  const interaction = new URL(start.headers.get('location') ?? '', provider.issuer)
  t.match(interaction.pathname, /^\/interaction\/[\w-]+$/)
  const cookie = start.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ')
  const page = await fetch(interaction, { headers: { cookie } })
  t.equal(page.status, 200)
  const policy = page.headers.get('content-security-policy') ?? ''
  t.match(policy, /default-src 'none'/)
  t.notMatch(policy, /unsafe-inline/)
  const html = await page.text()
  t.notMatch(html, /<script/i, 'no script at all, and the hint cannot inject one')
  t.match(html, /value="&#34;&#62;&#60;script&#62;alert\(1\)&#60;\/script&#62;"/)
  t.notMatch(html, /https?:\/\/(?!127\.0\.0\.1)/, 'no external asset')

  const bad = await fetch(new URL(`${interaction.pathname}/login`, provider.issuer), {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: 'not-an-email' }),
  })
  t.equal(bad.status, 400)
  t.match(await bad.text(), /is not an e-mail address/)
})

t.test('an expired or foreign interaction gets a readable page, not a crash', async (t) => {
  const response = await fetch(`${provider.issuer}/interaction/does-not-exist`)
  t.equal(response.status, 400)
  t.match(await response.text(), /expired/)
})

t.test('never starts with NODE_ENV=production', async (t) => {
  const previous = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  t.teardown(() => {
    process.env.NODE_ENV = previous
  })
  await t.rejects(
    startDevOidcProvider({ clients: [{ client_id: 'c', client_secret: 'secret-secret', redirect_uris: [REDIRECT_URI] }] }),
    ProductionRefusedError,
  )
})

t.test('refuses an issuer with a path', async (t) => {
  await t.rejects(
    startDevOidcProvider({
      issuer: 'http://127.0.0.1:1/oidc',
      clients: [{ client_id: 'c', client_secret: 'secret-secret', redirect_uris: [REDIRECT_URI] }],
    }),
    /without a path/,
  )
})

t.test('signInThroughProvider reports a provider error page in words', async (t) => {
  const url = new URL(`${provider.issuer}/auth`)
  url.search = new URLSearchParams({ client_id: 'unknown-client', response_type: 'code', scope: 'openid', redirect_uri: REDIRECT_URI }).toString()
  await t.rejects(signInThroughProvider({ authorizationUrl: url.href, email: 'a@example.com' }), /unexpected 400 .*client is invalid/)
})

t.test('the form refuses what it cannot use, with a 4xx', async (t) => {
  const config = await relyingParty()
  const { url } = await authorizationRequest(config)
  const start = await fetch(url, { redirect: 'manual' })
  const interaction = new URL(start.headers.get('location') ?? '', provider.issuer)
  const cookie = start.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ')
  const post = (body: string, type = 'application/x-www-form-urlencoded') =>
    fetch(new URL(`${interaction.pathname}/login`, provider.issuer), { method: 'POST', headers: { cookie, 'content-type': type }, body })

  const longName = await post(new URLSearchParams({ email: 'a@example.com', name: 'n'.repeat(256) }).toString())
  t.equal(longName.status, 400)
  t.match(await longName.text(), /longer than 255/)

  const json = await post('{"email":"a@example.com"}', 'application/json')
  t.equal(json.status, 400)
  t.match(await json.text(), /expected a form post/)

  const huge = await post(`email=${'a'.repeat(9000)}`)
  t.equal(huge.status, 400)
  t.match(await huge.text(), /too large/)

  const wrongMethod = await fetch(new URL(`${interaction.pathname}/login`, provider.issuer), { headers: { cookie } })
  t.equal(wrongMethod.status, 405)
  t.equal(wrongMethod.headers.get('allow'), 'POST')
})
