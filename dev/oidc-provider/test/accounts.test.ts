import t from 'tap'
import { AccountStore, subjectFor } from '../src/accounts.ts'

const picture = (sub: string) => `http://provider/avatar/${sub}.svg`

t.test('subjectFor is stable, case-insensitive and trims', async (t) => {
  t.equal(subjectFor(' A@Example.COM '), subjectFor('a@example.com'))
  t.not(subjectFor('a@example.com'), subjectFor('b@example.com'))
  t.match(subjectFor('a@example.com'), /^[0-9a-f]{32}$/)
})

t.test('claims come from the sign-in (grant) first, then the latest profile of the subject', async (t) => {
  const accounts = new AccountStore(picture)
  const sub = subjectFor('a@example.com')
  accounts.remember({ email: 'a@example.com', name: 'First', emailVerified: true }, 'grant-1')
  accounts.remember({ email: 'A@example.com', name: 'Second', emailVerified: false }, 'grant-2')
  t.same(accounts.claimsOf(sub, 'grant-1'), {
    sub,
    email: 'a@example.com',
    email_verified: true,
    name: 'First',
    picture: picture(sub),
  })
  t.equal(accounts.claimsOf(sub, 'grant-2')?.name, 'Second')
  t.equal(accounts.claimsOf(sub)?.name, 'Second', 'no grant: the latest profile')
  t.equal(accounts.claimsOf(sub, 'unknown-grant')?.name, 'Second')
  t.equal(accounts.claimsOf(subjectFor('nobody@example.com')), undefined)
})

t.test('grant profiles are forgotten after the grant lifetime', async (t) => {
  const accounts = new AccountStore(picture, 1000)
  const sub = subjectFor('a@example.com')
  accounts.remember({ email: 'a@example.com', name: 'Old', emailVerified: true }, 'old', 0)
  accounts.remember({ email: 'a@example.com', name: 'New', emailVerified: false }, 'new', 5000)
  t.equal(accounts.claimsOf(sub, 'old')?.name, 'New', 'the expired grant falls back to the latest profile')
  t.equal(accounts.claimsOf(sub, 'new')?.email_verified, false)
})
