import { penaltyOf } from '@signals/tradovate-wire'
import { BrokerError } from '../broker-adapter.ts'
import type { Attempt, RetryPolicy } from './retry-policy.ts'

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null)).slice(0, 200)

/** Classifies one socket answer: a penalty, a 429 (a wait), 200 (the data), or a refusal/5xx. */
export function classifyAnswer(endpoint: string, answer: { s: number; d: unknown }, policy: RetryPolicy): Attempt<unknown> {
  const penalty = penaltyOf(answer.d)
  if (penalty) return { penalty }
  if (answer.s === 429) return { wait: { ms: policy.rateLimitWaitMs, why: 'HTTP 429' } }
  if (answer.s === 200) return { ok: answer.d }
  // A 5xx on a command leaves its outcome unknown: never resent blindly, reconciled by tag.
  if (answer.s >= 500) return { error: new BrokerError('unavailable', `${endpoint}: the broker failed (status ${answer.s}); the outcome is unknown`) }
  return { error: new BrokerError('rejected', `${endpoint}: the broker refused the request (status ${answer.s}): ${text(answer.d)}`) }
}
