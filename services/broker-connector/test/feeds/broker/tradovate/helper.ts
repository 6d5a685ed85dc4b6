import type { Test } from 'tap'
import { startPaperBroker, type PaperBroker, type PaperBrokerOptions } from '@signals/dev-paper-broker'
import { eventually } from '@signals/test-support'
import type { BrokerEndpoints, BrokerEvent, BrokerLogin, BrokerSession } from '../../../../src/feeds/broker/broker-adapter.ts'
import { TradovateAdapter, type TradovateAdapterOptions } from '../../../../src/feeds/broker/tradovate/adapter.ts'
import type { TradovateLogin } from '../../../../src/feeds/broker/tradovate/rest.ts'

export const ACCOUNT = { name: 'trader', password: 'pw-123456', userId: 7, accountId: 70, accountName: 'DEMO70' }
export const LOGIN: BrokerLogin<'paper'> = { broker: 'paper', username: 'trader', password: 'pw-123456', appId: 'signals', appVersion: '1.0', cid: 8, sec: 'app-secret', deviceId: 'device-1', account: 'DEMO70' }

export async function paperBroker(t: Test, options: Partial<PaperBrokerOptions> = {}): Promise<PaperBroker> {
  const broker = await startPaperBroker({ accounts: [ACCOUNT], heartbeatMs: 200, ...options })
  t.teardown(() => broker.close())
  return broker
}

/** An open session against the paper broker (or other endpoints), with the events and losses it reported. */
export async function openSession(t: Test, broker: PaperBroker, adapterOptions: TradovateAdapterOptions = {}, login: TradovateLogin = LOGIN, endpoints: Partial<BrokerEndpoints> = {}) {
  const events: BrokerEvent[] = []
  const lost: string[] = []
  const adapter = new TradovateAdapter({ heartbeatMs: 200, silenceMs: 2_000, ...adapterOptions })
  const session: BrokerSession = await adapter.openSession({ restUrl: broker.restUrl, wsUrl: broker.wsUrl, mdUrl: broker.mdUrl, ...endpoints }, login, {
    onEvent: (event) => events.push(event),
    onLost: (reason) => lost.push(reason),
    timeoutMs: 5_000,
  })
  t.teardown(() => session.close())
  return { session, events, lost, adapter }
}

export const until = (predicate: () => boolean | Promise<boolean>, timeoutMs = 10_000) => eventually(predicate, { timeoutMs, intervalMs: 10 })
