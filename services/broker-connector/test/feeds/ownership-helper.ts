import type { Test } from 'tap'
import type { ChildProcess } from 'node:child_process'
import { startPaperBroker, type PaperBroker } from '@signals/dev-paper-broker'
import { freePort } from '@signals/test-support'
import type { Config } from '../../src/config.ts'
import { shardOf } from '../../src/feeds/ownership/shard.ts'
import { exited, spawnConnector, waitReady } from '../connector-process.ts'
import { PASSWORD } from './feed-helper.ts'

/** Short leases and a few shards: take-overs within seconds, and a handful of users spread over every shard. */
export const OWNERSHIP = { FEED_LEASE_TTL_MS: '3000', FEED_SHARDS: '4', FEED_STATUS_REFRESH_MS: '500' }

/** A paper broker with accounts trader0..trader(n-1). */
export async function paperBrokerFor(t: Test, count: number): Promise<PaperBroker> {
  const broker = await startPaperBroker({
    accounts: Array.from({ length: count }, (_, i) => ({ name: `trader${i}`, password: PASSWORD, userId: 100 + i, accountId: 9000 + i, accountName: `DEMO${9000 + i}` })),
    heartbeatMs: 200,
  })
  t.teardown(() => broker.close())
  return broker
}

/** Whether every listed username has exactly one session at the broker, and nobody else has one. */
export function eachConnectedOnce(broker: PaperBroker, usernames: readonly string[]): boolean {
  const sessions = broker.sessions()
  return sessions.length === usernames.length && usernames.every((name) => sessions.filter((s) => s === name).length === 1)
}

/** The shards the users fall in (a precondition: spread over every shard, so each instance holds some). */
export const shardsOf = (userIds: readonly string[], shards: number) => new Set(userIds.map((userId) => shardOf(userId, shards)))

/** The connector as operators run it (main.ts) in a process of its own, on this config; killed after the test. */
export async function connectorProcess(t: Test, config: Config, env: Record<string, string> = {}): Promise<{ child: ChildProcess; kill(): Promise<void> }> {
  const port = await freePort()
  const child = spawnConnector({
    DATABASE_URL: config.DATABASE_URL,
    BUS_NAMESPACE: config.BUS_NAMESPACE,
    NATS_URL: config.NATS_URL,
    CREDENTIALS_KEY: config.CREDENTIALS_KEY,
    CREDENTIALS_KEY_ID: config.CREDENTIALS_KEY_ID,
    CREDENTIALS_PREVIOUS_KEYS: config.CREDENTIALS_PREVIOUS_KEYS,
    PAPER_BROKER_URL: config.PAPER_BROKER_URL,
    PAPER_BROKER_WS_URL: config.PAPER_BROKER_WS_URL,
    BROKER_CONNECTOR_PORT: String(port),
    LOG_LEVEL: 'error',
    NODE_ENV: 'test',
    ...OWNERSHIP,
    ...env,
  })
  const kill = async () => {
    child.kill('SIGKILL')
    await exited(child)
  }
  t.teardown(kill)
  await waitReady(port)
  return { child, kill }
}
