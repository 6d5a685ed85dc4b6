import t from 'tap'
import { safeReturnTo } from '../src/return-to.ts'
import { profileFrom } from '../src/oidc/profile.ts'

t.test('safeReturnTo keeps same-site paths and drops everything else', async (t) => {
  t.equal(safeReturnTo('/'), '/')
  t.equal(safeReturnTo('/index.html?tab=1#x'), '/index.html?tab=1#x')
  t.equal(safeReturnTo('/a/../b'), '/b', 'normalised')
  for (const bad of [undefined, '', 'index.html', '//evil.example', '/\\evil.example', 'https://evil.example', '/a\\b', '/\u0000x', '/\nx', ' /x', '/auth/google', '/auth/logout', `/${'a'.repeat(600)}`, 42]) {
    t.equal(safeReturnTo(bad), null, `refuses ${JSON.stringify(bad)}`)
  }
})

t.test('profileFrom reads the claims sign-in needs and nothing unsafe', async (t) => {
  t.same(profileFrom({ sub: 's', email: 'a@b.c', email_verified: true, name: 'A', picture: 'https://x/p.png' }), {
    ok: true,
    profile: { sub: 's', email: 'a@b.c', emailVerified: true, name: 'A', picture: 'https://x/p.png' },
  })
  t.match(profileFrom({ sub: 's', email: 'a@b.c', email_verified: 'true' }), { ok: true, profile: { emailVerified: true, name: null, picture: null } })
  t.match(profileFrom({ sub: 's', email: 'a@b.c' }), { ok: true, profile: { emailVerified: false } })
  t.match(profileFrom({ sub: 's', email: 'a@b.c', picture: 'javascript:alert(1)' }), { profile: { picture: null } })
  t.equal((profileFrom({ sub: 's', email: 'a@b.c', name: 'n'.repeat(300) }) as { profile: { name: string } }).profile.name.length, 255)
  t.match(profileFrom({ email: 'a@b.c' }), { ok: false })
  t.match(profileFrom({ sub: 's' }), { ok: false })
  t.match(profileFrom({ sub: 's', email: 'not an email' }), { ok: false })
  t.match(profileFrom({ sub: 's', email: `${'x'.repeat(250)}@example.com` }), { ok: false })
})
