import t from 'tap'
import fc from 'fast-check'
import { build } from '../helper.ts'

const LIMIT = 64 * 1024
const RUNS = Number(process.env.INGEST_PROPERTY_RUNS ?? 200)

const contentTypes = fc.oneof(
  fc.constantFrom(
    undefined,
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'text/plain; charset=utf-8',
    'text/plain; charset=utf-16le',
    'text/plain; charset=nonsense',
    'application/x-www-form-urlencoded',
    'application/octet-stream',
    'multipart/form-data; boundary=x',
    'text/html',
    ';;;',
  ),
  fc.string({ maxLength: 40 }).filter((value) => /^[\x20-\x7e]*$/.test(value) && value.trim() !== ''),
)

const knownNames = ['action', 'Side', 'symbol', 'Ticker', 'entryPrice', 'Entry Price', 'price', 'sl', 'Stop Loss', 'tp', 'take_profit', 'indicator', 'user_id', 'User ID', 'userId', 'leverage', 'result', 'isVendorTest', 'id', 'time', 'message', 'secret']
const knownValues = fc.oneof(
  fc.constantFrom('Buy', 'sell', 'LONG', 'short', 'TP', 'sl', 'Exit', 'NQ1!', 'MNQZ6', '{{ticker}}', '15,000.25', '1e400', '-0', 'true', '', ' '),
  fc.double(),
  fc.string(),
)
const alertish = fc.dictionary(fc.oneof(fc.constantFrom(...knownNames), fc.string({ maxLength: 20 })), fc.oneof(knownValues, fc.jsonValue({ maxDepth: 3 })), { maxKeys: 12 })

/** Bytes from a seed: large random bodies without generating each byte through fast-check. */
function seededBytes(seed: number, length: number): Buffer {
  const bytes = Buffer.alloc(length)
  let state = seed | 1
  for (let i = 0; i < length; i++) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    bytes[i] = state & 0xff
  }
  return bytes
}

const randomBytes = fc.oneof(
  fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)),
  fc.tuple(fc.integer(), fc.integer({ min: 0, max: LIMIT })).map(([seed, length]) => seededBytes(seed, length)),
)
const randomJson = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.tuple(alertish, fc.nat({ max: 60_000 }), fc.boolean()).map(([record, padding, wrap]) => {
    const body = padding > 0 ? { ...record, padding: 'p'.repeat(padding) } : record
    return wrap ? JSON.stringify({ message: JSON.stringify(body) }) : JSON.stringify(body)
  }),
)
const labelLine = fc.tuple(
  fc.oneof(fc.constantFrom(...knownNames, 'ACTION', 'stop loss', 'Take Profit', 'Entry'), fc.string({ maxLength: 30 })),
  fc.constantFrom(': ', ':', ' = ', ' : ', ''),
  fc.oneof(knownValues.map(String), fc.string({ maxLength: 200 })),
).map(([label, separator, value]) => `${label}${separator}${value}`)
const randomLabelLines = fc
  .tuple(fc.array(labelLine, { maxLength: 40 }), fc.constantFrom('\n', '\r\n', '\r'), fc.boolean(), fc.nat({ max: 60_000 }))
  .map(([lines, newline, bom, padding]) => `${bom ? '\uFEFF' : ''}${lines.join(newline)}${padding > 0 ? `${newline}Note: ${'n'.repeat(padding)}` : ''}`)

const withinLimit = (body: string | Buffer) => Buffer.byteLength(body) <= LIMIT

t.test('no body up to 64 KiB gets a 5xx, whatever its content type; every published message fits its contract', async (t) => {
  const { app, watcher } = await build(t, { PREMIUM_INDICATORS: 'Premium', INGEST_RATE_LIMIT_PER_MINUTE: '0' })
  const statuses = new Map<number, number>()
  const property = (body: string | Buffer, contentType: string | undefined, where: 'body' | 'query' | 'header') =>
    app
      .inject({
        method: 'POST',
        url: where === 'query' ? `/webhook/alert?message=${encodeURIComponent(body.toString().slice(0, 2000))}&user_id=prop` : '/webhook/alert',
        headers: {
          ...(contentType === undefined ? {} : { 'content-type': contentType }),
          ...(where === 'header' ? { 'x-alert-message': body.toString('latin1').slice(0, 2000).replace(/[^\x20-\x7e]/g, ' ') } : {}),
        },
        payload: where === 'header' ? '' : body,
      })
      .then((response) => {
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
        if (response.statusCode >= 500) throw new Error(`${response.statusCode}: ${response.body}`)
        if (response.statusCode !== 200 && response.statusCode !== 400) throw new Error(`unexpected ${response.statusCode}: ${response.body}`)
        const answer = response.json<{ success: boolean }>()
        if (answer.success !== (response.statusCode === 200)) throw new Error(`inconsistent answer ${response.body}`)
      })
  const where = fc.constantFrom('body' as const, 'body' as const, 'query' as const, 'header' as const)
  for (const [name, bodies] of [
    ['random bytes', randomBytes],
    ['random JSON', randomJson],
    ['random label lines', randomLabelLines],
  ] as const) {
    await fc.assert(fc.asyncProperty((bodies as fc.Arbitrary<string | Buffer>).filter(withinLimit), contentTypes, where, property), { numRuns: RUNS })
    t.pass(`${name}: ${RUNS} bodies, no 5xx`)
  }
  t.ok(app.server !== undefined, 'the process is still serving')
  const healthy = await app.inject({ method: 'GET', url: '/health' })
  t.equal(healthy.statusCode, 200)
  t.ok((statuses.get(200) ?? 0) > 0 && (statuses.get(400) ?? 0) > 0, `both accepted and refused bodies were exercised: ${JSON.stringify([...statuses])}`)
  await watcher.intakeEntries(RUNS * 3, 15_000)
  t.same(watcher.invalid, [], 'every published alert and intake-log entry matches its contract')
  t.ok(watcher.alerts.length > 0, `${watcher.alerts.length} alerts published and checked`)
})
