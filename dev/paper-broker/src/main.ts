// Runs the paper broker on its own for development: `node --import tsx dev/paper-broker/src/main.ts`.
// PAPER_BROKER_PORT (default 3011), PAPER_BROKER_ACCOUNTS as `name:password,name:password`
// (default `demo:demo`; a name given twice is one login with two trading accounts), PAPER_BROKER_STARTING_BALANCE (default 50000),
// PAPER_BROKER_COMMISSION (per contract filled, default 0). Move the market with
// `POST /dev/prices {"symbol":"MNQZ6","price":"21000.25"}` (README); place an order of your own with `POST /dev/orders
// {"name":"demo","symbol":"MNQZ6","action":"Sell","qty":1}`; fill in parts with `POST /dev/liquidity {"symbol","lots"}` or `POST /dev/partial-fills {"orderId","lots"}`.
// Refuses to run with NODE_ENV=production.
import { startPaperBroker } from './paper-broker.ts'
import type { PaperAccount } from './paper-account.ts'

if (process.env.NODE_ENV === 'production') {
  process.stderr.write('paper-broker: a development simulator; not started with NODE_ENV=production\n')
  process.exit(78)
}

// One user id per login name: a name given twice is one login holding both accounts.
const userIds = new Map<string, number>()
const accounts: PaperAccount[] = (process.env.PAPER_BROKER_ACCOUNTS || 'demo:demo')
  .split(',')
  .map((entry) => entry.trim())
  .filter(Boolean)
  .map((entry, index) => {
    const colon = entry.indexOf(':')
    const name = colon > 0 ? entry.slice(0, colon) : entry
    const userId = userIds.get(name) ?? 1000 + index
    userIds.set(name, userId)
    return { name, password: colon > 0 ? entry.slice(colon + 1) : '', userId, accountId: 9000 + index, accountName: `PAPER${9000 + index}` }
  })

const startingBalance = process.env.PAPER_BROKER_STARTING_BALANCE || '50000'
if (!/^\d{1,12}(\.\d{1,2})?$/.test(startingBalance)) {
  process.stderr.write('paper-broker: PAPER_BROKER_STARTING_BALANCE must be an amount such as 50000 or 25000.50\n')
  process.exit(78)
}

const commission = process.env.PAPER_BROKER_COMMISSION || '0'
if (!/^\d{1,4}(\.\d{1,4})?$/.test(commission)) {
  process.stderr.write('paper-broker: PAPER_BROKER_COMMISSION must be an amount per contract such as 0.52\n')
  process.exit(78)
}

const broker = await startPaperBroker({
  port: Number(process.env.PAPER_BROKER_PORT || 3011),
  host: process.env.HOST || '127.0.0.1',
  accounts,
  startingBalance,
  commissionPerContract: commission,
})
process.stdout.write(`paper-broker: REST ${broker.restUrl}, real-time ${broker.wsUrl}, ${accounts.length} account(s); prices: POST ${broker.restUrl.replace(/\/v1$/, '')}/dev/prices\n`)
const stop = () => {
  void broker.close().then(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
