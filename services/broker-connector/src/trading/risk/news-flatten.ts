import { exchangeMinuteOfDay } from '@signals/instruments'
import { SweepTimer } from '../entry/sweep-timer.ts'
import { claimNewsFlatten, markNewsFlattenDone, newsEventsInBlackout, newsFlattenAccounts } from '../../repositories/daily-flattens.ts'
import { noteCloseReason } from '../../repositories/risk-halts.ts'
import type { DailyFlattenDeps } from './daily-flatten.ts'

const clock = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`

/**
 * The flatten before the news (`sessionRules.flattenBeforeNews`): each pass, for every user asking for it
 * whose session this instance holds, once a news event's blackout has begun the account is flattened,
 * once per user and event (claimed in Postgres like the daily flatten, so a restart inside the blackout
 * flattens if it had not, and never twice). Entries meanwhile are refused by the entry gate.
 */
export class NewsFlatten {
  readonly timer: SweepTimer

  constructor(
    private readonly deps: DailyFlattenDeps,
    intervalMs: number,
  ) {
    this.timer = new SweepTimer(() => this.pass(), intervalMs, deps.logger, 'news flatten pass')
  }

  /** One look at the accounts asking for it (each user's primary, as the daily flatten's): the user ids flattened. */
  async pass(now = this.deps.clock()): Promise<string[]> {
    const users = await newsFlattenAccounts(this.deps.db)
    const held = users.flatMap((user) => {
      const session = this.deps.sessions.session(user.user_id)
      return session ? [{ userId: user.user_id, session }] : []
    })
    if (held.length === 0) return []
    const events = await newsEventsInBlackout(this.deps.db, now)
    const flattened: string[] = []
    for (const { userId, session } of held) {
      for (const event of events) {
        if (!(await claimNewsFlatten(this.deps.db, userId, event.id))) continue
        try {
          const cause = `the news blackout for ${event.name} at ${clock(exchangeMinuteOfDay(event.at))} exchange time (America/Chicago)`
          await noteCloseReason(this.deps.db, userId, this.deps.scopeOf(session), `Closed before ${cause}.`)
          await this.deps.flattens.flattenEverything(userId, session, cause)
          await markNewsFlattenDone(this.deps.db, userId, event.id)
          flattened.push(userId)
        } catch (error) {
          this.deps.logger.warn({ err: error, userId }, 'news flatten failed; tried again on a later pass')
        }
      }
    }
    return flattened
  }
}

