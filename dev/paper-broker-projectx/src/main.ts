// Runs the ProjectX paper broker on its own for development: `node --import tsx dev/paper-broker-projectx/src/main.ts`
// (`pnpm start` runs it beside the Tradovate one). PROJECTX_PAPER_BROKER_PORT (default 3012),
// PROJECTX_PAPER_BROKER_ACCOUNTS as `userName:apiKey,...` (default `demo:demo-key`; a name given twice is one
// login with two accounts), PROJECTX_PAPER_BROKER_STARTING_BALANCE (default 50000). Move the market with
// `POST /dev/prices {"symbol":"MNQZ6","price":"21000.25"}` (or `"symbol":"CON.F.US.MNQ.Z26"`).
// Refuses to run with NODE_ENV=production.
import { startProjectXPaperBroker } from './paper-broker.ts'
import type { ProjectXPaperAccount } from './accounts.ts'

if (process.env.NODE_ENV === 'production') {
  process.stderr.write('projectx-paper-broker: a development simulator; not started with NODE_ENV=production\n')
  process.exit(78)
}

const accounts: ProjectXPaperAccount[] = (process.env.PROJECTX_PAPER_BROKER_ACCOUNTS || 'demo:demo-key')
  .split(',')
  .map((entry) => entry.trim())
  .filter(Boolean)
  .map((entry, index) => {
    const colon = entry.indexOf(':')
    const userName = colon > 0 ? entry.slice(0, colon) : entry
    return { userName, apiKey: colon > 0 ? entry.slice(colon + 1) : '', accountId: 7000 + index, accountName: `PAPERX${7000 + index}` }
  })

const startingBalance = process.env.PROJECTX_PAPER_BROKER_STARTING_BALANCE || '50000'
if (!/^\d{1,12}(\.\d{1,2})?$/.test(startingBalance)) {
  process.stderr.write('projectx-paper-broker: PROJECTX_PAPER_BROKER_STARTING_BALANCE must be an amount such as 50000 or 25000.50\n')
  process.exit(78)
}

const broker = await startProjectXPaperBroker({ port: Number(process.env.PROJECTX_PAPER_BROKER_PORT || 3012), host: process.env.HOST || '127.0.0.1', accounts, startingBalance })
process.stdout.write(`projectx-paper-broker: API ${broker.apiUrl}/api, hubs ${broker.userHubUrl} and ${broker.marketHubUrl}, ${accounts.length} account(s); prices: POST ${broker.apiUrl}/dev/prices\n`)
const stop = () => {
  void broker.close().then(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
