import t from 'tap'
import { CREDENTIALS_TEST_SUBJECT } from '@signals/contracts'
import { sql } from '@signals/db'
import { eventually, identityHeaders, publishAlert } from '../../helper.ts'
import { connectedTrader, liveTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { saveCredentials } from '../../feeds/feed-helper.ts'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

t.test('closing one trade from its row flattens its contract at the broker; the trade closes from the fill', async (t) => {
  const { broker, app, db, config } = await connectedTrader(t)
  const entry = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  const trade = (await tradeOfRecord(db, record.id))!
  const headers = identityHeaders(config, 'u-0')

  const response = await app.inject({ method: 'POST', url: `/api/trades/${trade.id}/close`, headers })
  t.equal(response.statusCode, 200, response.body)
  t.match(response.json(), { success: true, tradeId: String(trade.id), exit: 'sent', detail: /exit sent to the broker: the LONG MNQZ6 position of 5 is being flattened/ })
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), { result: 'Session End', close_reason: /You closed it from the trades list/ })
  t.equal(broker.positions().find((position) => position.accountId === 9000)?.netPos ?? 0, 0, 'flat at the broker')

  const again = await app.inject({ method: 'POST', url: `/api/trades/${trade.id}/close`, headers })
  t.equal(again.statusCode, 409)
  t.match(again.json(), { error: `Trade ${trade.id} is already closed` })
  t.equal((await app.inject({ method: 'POST', url: '/api/trades/999999/close', headers })).statusCode, 404)
  t.equal((await app.inject({ method: 'POST', url: '/api/trades/abc/close', headers })).statusCode, 400)
  const other = identityHeaders(config, 'someone-else')
  t.equal((await app.inject({ method: 'POST', url: `/api/trades/${trade.id}/close`, headers: other })).statusCode, 404, "another user's trade is not found")

  await sql`INSERT INTO trades (user_id, symbol, root, side, quantity, entry_price, status) VALUES ('u-0', 'MNQ1!', 'MNQ', 'LONG', 1, 21000, 'open')`.execute(db)
  const paperOnly = await db.selectFrom('trades').select('id').where('broker_contract_id', 'is', null).executeTakeFirstOrThrow()
  const refused = await app.inject({ method: 'POST', url: `/api/trades/${paperOnly.id}/close`, headers })
  t.equal(refused.statusCode, 409)
  t.match(refused.json(), { error: /has no position at the broker/ })
})

t.test('credentials test: the stored login tried at the paper broker, the refusal in its words', async (t) => {
  const { app, db, config } = await connectedTrader(t)
  const ask = async (userId: string) => {
    const reply = await app.bus.nc.request(app.bus.subject(CREDENTIALS_TEST_SUBJECT), encoder.encode(JSON.stringify({ version: 1, userId })), { timeout: 10_000 })
    return JSON.parse(decoder.decode(reply.data)) as unknown
  }
  t.match(await ask('u-0'), { version: 1, ok: true, kind: null, detail: 'The broker accepted the login: account DEMO9000.' })
  t.match(await ask('nobody'), { ok: false, kind: 'no_credentials', detail: 'No broker credentials are stored.' })

  await liveTrader(db, config, { userId: 'u-2', username: 'trader2' })
  await saveCredentials(db, config, 'u-2', 'trader2', 'wrong-password')
  t.match(await ask('u-2'), { ok: false, kind: 'credentials_refused', detail: /^The broker refused the login: / })
})
