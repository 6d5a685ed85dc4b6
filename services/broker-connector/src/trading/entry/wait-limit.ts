/** The configured ages a waiting record is judged by (ENTRY_SESSION_WAIT_MS, ENTRY_MAX_AGE_MS). */
export interface WaitLimits {
  sessionWaitMs: number
  maxAlertAgeMs: number
}

/**
 * Whether a record waiting for the broker (a rate limit, no answer before any send, a reversal's close not
 * yet filled, an instruction the broker could not take) has waited long enough: then it fails with the
 * reason instead of waiting. Decided by the record's age, never by how often its message was delivered
 * (docs/decisions/consumers.md): the age past which the sweep settles a record too, so a record the
 * sweep finds is judged as a delivery would judge it.
 */
export function pastWaitLimit(limits: WaitLimits, record: { age_ms: number }): boolean {
  return record.age_ms >= Math.max(limits.sessionWaitMs, limits.maxAlertAgeMs)
}
