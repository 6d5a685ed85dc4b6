// Child process of the benchmarks that need a broker: the paper broker with `trader-<i>` accounts, standing
// in for a remote broker (its market work is not the connector's to count), with Tradovate's wire face or
// ProjectX's (one engine behind both). Driven over IPC by paper-broker-process.ts; the account count comes
// as the first argument, the face as the second.
import { startPaperBroker } from '@signals/dev-paper-broker'
import { startProjectXPaperBroker } from '@signals/dev-paper-broker-projectx'
import { paperAccounts, projectXAccounts, wallClock, type FromPaperBroker, type ToPaperBroker } from './paper-broker-process.ts'

const send = (message: FromPaperBroker) => process.send?.(message)
const accounts = Number(process.argv[2])
const orderArrived = () => send({ type: 'order', at: wallClock() })

/** The two faces as this child needs them: positions, sessions, close, and where the connector connects. */
async function startFace() {
  if (process.argv[3] === 'projectx') {
    // ProjectX allows 200 requests per login a minute; the single-user series sends more than that on one
    // login, and the bench measures our path, not ProjectX's limit (the connector's own window is raised too).
    const broker = await startProjectXPaperBroker({
      accounts: projectXAccounts(accounts),
      rateLimit: { limit: 1_000_000, windowMs: 60_000 },
      onRequest: (request) => {
        if (request.endpoint === 'Order/place') orderArrived()
      },
    })
    return { broker, urls: { restUrl: broker.apiUrl, wsUrl: broker.userHubUrl, mdUrl: broker.marketHubUrl } }
  }
  const broker = await startPaperBroker({
    accounts: paperAccounts(accounts),
    onRequest: (request) => {
      if (request.endpoint === 'order/placeOSO') orderArrived()
    },
  })
  return { broker, urls: { restUrl: broker.restUrl, wsUrl: broker.wsUrl, mdUrl: broker.mdUrl } }
}

const { broker, urls } = await startFace()
broker.setPrice('MNQZ6', '21000')
process.on('message', (message: ToPaperBroker) => {
  if (message === 'flat?') send({ type: 'flat', flat: broker.positions().every((position) => position.netPos === 0) })
  else if (message === 'sessions?') send({ type: 'sessions', count: broker.sessions().length })
  else if (message === 'stop') void broker.close().finally(() => process.exit(0))
})
send({ type: 'ready', ...urls })
