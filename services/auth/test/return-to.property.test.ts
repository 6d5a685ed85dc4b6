import t from 'tap'
import fc from 'fast-check'
import { safeReturnTo } from '../src/return-to.ts'

// How a browser reads a Location header relative to the page that received it.
const SITE = 'https://signals.example'
function landsOnSite(location: string): boolean {
  return new URL(location, `${SITE}/auth/google/callback`).origin === SITE
}

t.test('paths that normalise into a scheme-relative URL are refused (issue 15 point 1)', async (t) => {
  for (const sneaky of ['/.//evil.example', '%2F.%2F%2Fevil.example', '/..//x', '/%2e//x', '/%2E%2E//x', '/a/..//x', '/./\\x', '/.%2f/x']) {
    const decoded = sneaky.startsWith('%') ? decodeURIComponent(sneaky) : sneaky
    const result = safeReturnTo(decoded)
    t.ok(result === null || (!result.startsWith('//') && landsOnSite(result)), `${sneaky} -> ${String(result)}`)
  }
  t.equal(safeReturnTo('/.//evil.example'), null)
})

t.test('whatever the input, the answer is null or a path on this site that a browser keeps on this site', async (t) => {
  const segment = fc.constantFrom('', '.', '..', '%2e', '%2E%2e', 'evil.example', 'a', '%2f', '%5c', '\\', '?', '#', '@', ':', '%00', '%09')
  const pathLike = fc.array(segment, { maxLength: 8 }).map((parts) => `/${parts.join('/')}`)
  const input = fc.oneof(pathLike, fc.string(), fc.webUrl(), fc.webPath())
  fc.assert(
    fc.property(input, (value) => {
      const result = safeReturnTo(value)
      if (result === null) return true
      return result.startsWith('/') && !result.startsWith('//') && !result.startsWith('/\\') && landsOnSite(result) && safeReturnTo(result) === result
    }),
    { numRuns: 5000 },
  )
  t.pass('property held')
})
