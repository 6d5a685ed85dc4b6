import t from 'tap'
import { booleanValue, priceValue, resultValue, sideValue, textValue, timestampValue } from '../../src/parsing/values.ts'
import { alertIdOf } from '../../src/alert-id.ts'
import { sourceAllowList } from '../../src/http/source-allow-list.ts'
import { SecretRedactor, secretMatcher } from '../../src/webhook-secret.ts'

t.test('sides, results, prices, booleans, text', async (t) => {
  t.same(['Buy', 'BUY', ' long ', 'Sell', 'short', 'SHORT', 'hold', '{{strategy.order.action}}', 1].map(sideValue), ['LONG', 'LONG', 'LONG', 'SHORT', 'SHORT', 'SHORT', null, null, null])
  t.same(['TP', 'tp', 'Take Profit', 'SL', 'stop_loss', 'Exit', 'session end', 'other'].map(resultValue), ['TP', 'TP', 'TP', 'SL', 'SL', 'Exit', 'Exit', null])
  t.same([15000.25, '15000.25', ' 15,000.25 ', '1.5e3', '-3', '.5', '1,5', 'abc', '{{close}}', Infinity, '1e400', null, true].map(priceValue), [15000.25, 15000.25, 15000.25, 1500, -3, 0.5, null, null, null, null, null, null, null])
  t.same([true, 'true', 'YES', '1', 1, false, 'no', 'false', null].map(booleanValue), [true, true, true, true, true, false, false, false, false])
  t.same([' a ', '', 12, false, {}, null].map(textValue), ['a', null, '12', 'false', null, null])
})

t.test('timestamps: ISO, epoch seconds and milliseconds; placeholders are not guessed at', async (t) => {
  t.equal(timestampValue('2026-11-21T06:00:00Z'), Date.parse('2026-11-21T06:00:00Z'))
  t.equal(timestampValue(1_790_000_000), 1_790_000_000_000)
  t.equal(timestampValue('1790000000000'), 1_790_000_000_000)
  t.equal(timestampValue('{{timenow}}'), null)
  t.equal(timestampValue('yesterday'), null)
})

t.test('alert ids: the explicit id within its user when usable, else a hash of normalized text and user', async (t) => {
  const explicit = alertIdOf('tv-1', 'x', 'u')
  t.match(explicit, /^[0-9a-f]{40}$/)
  t.equal(alertIdOf('tv-1', 'other text', 'u'), explicit, 'the explicit id decides, not the text')
  t.not(alertIdOf('tv-1', 'x', 'v'), explicit, "another user's tv-1 is another alert")
  t.not(alertIdOf('tv-1', 'x', null), explicit, 'an alert naming no user has its own scope')
  t.equal(alertIdOf(42, 'x', 'u'), alertIdOf('42', 'y', 'u'))
  const hashed = alertIdOf(undefined, 'Action: Buy\r\nUser: u\r\n', 'u')
  t.match(hashed, /^[0-9a-f]{40}$/)
  t.equal(alertIdOf(undefined, '\uFEFFAction: Buy\nUser: u', 'u'), hashed, 'BOM, CRLF and trailing blanks do not change it')
  t.not(alertIdOf(undefined, 'Action: Buy\nUser: u', 'v'), hashed, 'another user, another id')
  t.not(alertIdOf('{{id}}', 'x', 'u'), '{{id}}')
  t.not(alertIdOf('has blank', 'x', 'u'), 'has blank')
  t.not(alertIdOf('x'.repeat(65), 'x', 'u'), 'x'.repeat(65))
  // Issue 22: a signal source is a scope of its own, for explicit and text ids alike.
  const source = '0b7c6a3e-1f2d-4c5b-8a9e-0123456789ab'
  t.not(alertIdOf('tv-1', 'x', 'u', source), explicit, "a source's tv-1 is not the spec route's")
  t.not(alertIdOf('tv-1', 'x', 'u', source), alertIdOf('tv-1', 'x', 'u', '1c8d7b4f-2e3a-4d6c-9baf-123456789abc'), 'nor another source\'s')
  t.equal(alertIdOf('tv-1', 'other', 'u', source), alertIdOf('tv-1', 'x', 'u', source), 'within one source the explicit id decides')
  t.not(alertIdOf(undefined, 'Action: Buy', 'u', source), alertIdOf(undefined, 'Action: Buy', 'u'), 'text ids too')
  t.equal(alertIdOf('tv-1', 'x', 'u', undefined), explicit, "the spec route's ids are unchanged")
})

t.test('source allow-list: addresses, CIDRs, IPv6, IPv4-mapped', async (t) => {
  const allowed = sourceAllowList('52.89.214.238, 10.0.0.0/8, 2001:db8::/32')
  t.ok(allowed)
  t.same(['52.89.214.238', '::ffff:52.89.214.238', '10.200.1.1', '2001:db8::1', '52.89.214.239', '2001:db9::1', 'garbage'].map((ip) => allowed?.(ip)), [true, true, true, true, false, false, false])
  t.equal(sourceAllowList(undefined), null)
  t.equal(sourceAllowList(' '), null)
  t.throws(() => sourceAllowList('not-an-ip'), /not an address/)
})

t.test('secrets: constant-time match, redaction everywhere', async (t) => {
  const matches = secretMatcher('s3cret-value')
  t.ok(matches('s3cret-value'))
  t.notOk(matches('s3cret-valu'))
  t.notOk(matches(''))
  const redactor = new SecretRedactor(['s3cret-value', 'short'])
  t.equal(redactor.text('a s3cret-value b'), 'a [redacted] b')
  t.equal(redactor.text('short'), 'short', 'candidates under 8 characters are not hunted in text')
  t.same(redactor.value({ passphrase: 'short', nested: { Secret: 'x', note: 'has s3cret-value inside' }, list: ['s3cret-value'] }), {
    passphrase: '[redacted]',
    nested: { Secret: '[redacted]', note: 'has [redacted] inside' },
    list: ['[redacted]'],
  })
})
