import type { Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { openBucket } from '@signals/bus'
import { Buckets, FeedCommandV1, contract, feedStatusKey, type BrokerEnvironment, type BrokerName, type FeedStatus } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import { CredentialsCipher, sealCredentials } from '@signals/secrets'
import { startPaperBroker, type PaperBroker } from '@signals/dev-paper-broker'
import { storePrimaryLogin, waitFor } from '@signals/test-support'
import type { Config } from '../../src/config.ts'
import type { App } from '../helper.ts'

export const PASSWORD = 'correct-horse-battery-staple'
const commands = contract(FeedCommandV1)

export async function paperBroker(t: Test): Promise<PaperBroker> {
  const broker = await startPaperBroker({
    accounts: [
      { name: 'trader0', password: PASSWORD, userId: 100, accountId: 9000, accountName: 'DEMO9000' },
      { name: 'trader1', password: PASSWORD, userId: 101, accountId: 9001, accountName: 'DEMO9001' },
    ],
    heartbeatMs: 200,
  })
  t.teardown(() => broker.close())
  return broker
}

/** The trading account of the test brokers' login `trader<i>`: `DEMO<9000 + i>` ("DEMO" for any other name). */
export const paperAccountOf = (username: string) => {
  const index = /^trader(\d+)$/.exec(username)?.[1]
  return index === undefined ? 'DEMO' : `DEMO${9000 + Number(index)}`
}

/**
 * Paper credentials stored as the settings service stores them (the primary account's login): sealed for this
 * user, broker, environment and account (by default the login's own account, as a trader would save it).
 */
export async function saveCredentials(
  db: Kysely<Database>,
  config: Config,
  userId: string,
  username: string,
  password = PASSWORD,
  venue: { broker?: BrokerName; environment?: BrokerEnvironment; account?: string } = {},
) {
  const cipher = CredentialsCipher.fromConfig(config.CREDENTIALS_KEY_ID, config.CREDENTIALS_KEY, config.CREDENTIALS_PREVIOUS_KEYS)
  const owner = { userId, broker: venue.broker ?? 'paper', environment: venue.environment ?? 'demo', accountId: venue.account ?? paperAccountOf(username) }
  const sealed = sealCredentials(cipher, owner, { username, password, appId: 'signals', appVersion: '1.0', cid: 8, sec: 'app-secret-value', deviceId: null })
  await storePrimaryLogin(db, { ...owner, sealed })
}

export async function statusOf(app: App, userId: string): Promise<FeedStatus | null> {
  const bucket = await openBucket(app.bus, Buckets.feedStatus)
  const entry = await bucket.get(feedStatusKey(userId))
  return entry && entry.operation === 'PUT' ? (entry.json() as FeedStatus) : null
}

export const command = (app: App, userId: string, action: 'start' | 'stop' | 'restart') => {
  const commandId = randomUUID()
  return app.bus.publish(`feeds.${action}`, commands, { version: 1, commandId, userId, action, reason: 'test', requestedAt: new Date().toISOString() }, { messageId: commandId })
}

/** Waits until the user's feed reaches `state` and returns that status as seen (a later read may find another). */
export async function seenState(app: App, userId: string, state: FeedStatus['state'], timeoutMs = 15_000) {
  // One bucket handle for the whole wait: opening it per poll costs a JetStream call, and a loaded
  // machine then polls too seldom to see a state that lasts a second.
  const bucket = await openBucket(app.bus, Buckets.feedStatus)
  return waitFor(async () => {
    const entry = await bucket.get(feedStatusKey(userId))
    const status = entry && entry.operation === 'PUT' ? (entry.json() as FeedStatus) : null
    return status?.state === state ? status : undefined
  }, { timeoutMs, intervalMs: 10 })
}

/**
 * Every status the user's feed is given from now on, in order, as the bucket's watcher delivers them: a
 * state that lasts a moment is seen however loaded the machine is (polling can miss it).
 */
export async function recordStates(t: Test, app: App, userId: string): Promise<FeedStatus[]> {
  const bucket = await openBucket(app.bus, Buckets.feedStatus)
  const watcher = await bucket.watch({ key: feedStatusKey(userId) })
  const states: FeedStatus[] = []
  void (async () => {
    for await (const entry of watcher) if (entry.operation === 'PUT') states.push(entry.json() as FeedStatus)
  })()
  t.teardown(() => watcher.stop())
  return states
}
