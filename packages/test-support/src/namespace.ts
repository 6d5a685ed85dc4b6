import { randomBytes } from 'node:crypto'

/** A bus namespace of the test's own: its streams and subjects cross no other test's. */
export function testNamespace(): string {
  return `t${randomBytes(5).toString('hex')}`
}

export const TEST_NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222'
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
