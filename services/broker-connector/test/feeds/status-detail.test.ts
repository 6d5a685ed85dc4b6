import t from 'tap'
import { boundedDetail } from '../../src/feeds/status-detail.ts'
import { build, eventually, seedUsers } from '../helper.ts'
import { PASSWORD, command, paperBroker, saveCredentials, statusOf } from './feed-helper.ts'

/** Twelve differences of about 60 characters each: the note of a reconciliation that found many. */
const differences = Array.from({ length: 12 }, (_, i) => `MNQZ6 difference ${i + 1}: the broker holds 2, the trades hold ${i}`)

t.test('a connected feed\'s status too long for its 500 characters keeps whole parts and says how many were left out', async (t) => {
  const broker = await paperBroker(t)
  const { app, db, config } = await build(t, { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl }, { consumers: false, feeds: true })
  await seedUsers(db, 1, { prefix: 'live' })
  await saveCredentials(db, config, 'live-0', 'trader0', PASSWORD)
  await command(app, 'live-0', 'start')
  await eventually(async () => (await statusOf(app, 'live-0'))?.state === 'connected')

  app.feeds.addHooks({ statusNote: () => `broker and trades differ: ${differences.join('; ')}` })
  await app.feeds.refreshStatuses()
  const detail = (await statusOf(app, 'live-0'))?.detail ?? ''
  const parts = detail.split('; ')
  const last = parts.pop() ?? ''
  t.ok(detail.length <= 500, `within the contract's 500 characters (${detail.length})`)
  t.match(last, /^… and \d+ more$/, `the end says how many parts were left out: "${last}"`)
  t.equal(parts[0], 'account DEMO9000', 'the account first')
  // The note's parts: its first difference after the heading, then the others.
  const shown = parts.slice(1)
  t.same(shown, differences.slice(0, shown.length).map((difference, i) => (i === 0 ? `broker and trades differ: ${difference}` : difference)), 'every difference shown is whole, in order')
  t.equal(shown.length + Number(/\d+/.exec(last)?.[0]), differences.length, 'shown and left out add up to all of them')
})

t.test('boundedDetail: a detail that fits is kept as it is; a first part too long alone is cut and says so', async (t) => {
  t.equal(boundedDetail('account DEMO1; one note'), 'account DEMO1; one note')
  const long = `${'x'.repeat(600)}; second; third`
  const cut = boundedDetail(long)
  t.equal(cut.length, 500)
  t.match(cut, /^x+ … and 2 more$/)
  t.match(boundedDetail('y'.repeat(700)), /^y{498} …$/)
})
