import t from 'tap'
import { BrokerAdapters } from '../../../src/feeds/broker/adapters.ts'
import { BrokerError, type BrokerAdapter, type BrokerLogin } from '../../../src/feeds/broker/broker-adapter.ts'
import { TradovateAdapter } from '../../../src/feeds/broker/tradovate/adapter.ts'

const ENDPOINTS = { restUrl: 'http://127.0.0.1:1/v1', wsUrl: 'ws://127.0.0.1:1/v1/websocket', mdUrl: 'ws://127.0.0.1:1/v1/websocket' }
const LOGIN: BrokerLogin<'paper'> = { broker: 'paper', account: 'DEMO1', username: 'ada', password: 'pw', appId: null, appVersion: null, cid: null, sec: null, deviceId: null }

t.test("a login opens with its own broker's adapter, made once per broker", async (t) => {
  const opened: string[] = []
  const paper: BrokerAdapter<'paper'> = {
    openSession(_endpoints, login) {
      opened.push(`${login.broker}:${login.username}`)
      return Promise.reject(new BrokerError('credentials_refused', 'refused here'))
    },
  }
  const adapters = new BrokerAdapters({ paper })
  const error: unknown = await adapters.openSession(ENDPOINTS, LOGIN, { onEvent: () => undefined, onLost: () => undefined }).catch((caught: unknown) => caught)
  t.ok(error instanceof BrokerError && error.kind === 'credentials_refused', "the adapter's refusal comes back as it was")
  t.same(opened, ['paper:ada'], 'the paper login went to the paper adapter given')
  t.equal(await adapters.of('paper'), paper)
  t.ok((await adapters.of('tradovate')) instanceof TradovateAdapter, "Tradovate's adapter from the registry")
  t.equal(await adapters.of('tradovate'), await adapters.of('tradovate'), 'kept for the process (its penalty tickets outlive a session)')
})
