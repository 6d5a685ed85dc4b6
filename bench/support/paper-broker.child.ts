// Child process of the benchmarks that need a broker: the paper broker with `trader-<i>` accounts, standing
// in for a remote broker (its market work is not the connector's to count). Driven over IPC by
// paper-broker-process.ts; the account count comes as the first argument.
import { startPaperBroker } from '@signals/dev-paper-broker'
import { paperAccounts, wallClock, type FromPaperBroker, type ToPaperBroker } from './paper-broker-process.ts'

const send = (message: FromPaperBroker) => process.send?.(message)
const broker = await startPaperBroker({
  accounts: paperAccounts(Number(process.argv[2])),
  onRequest: (request) => {
    if (request.endpoint === 'order/placeOSO') send({ type: 'order', at: wallClock() })
  },
})
broker.setPrice('MNQZ6', '21000')
process.on('message', (message: ToPaperBroker) => {
  if (message === 'flat?') send({ type: 'flat', flat: broker.positions().every((position) => position.netPos === 0) })
  else if (message === 'sessions?') send({ type: 'sessions', count: broker.sessions().length })
  else if (message === 'stop') void broker.close().finally(() => process.exit(0))
})
send({ type: 'ready', restUrl: broker.restUrl, wsUrl: broker.wsUrl })
