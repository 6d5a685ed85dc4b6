import { exchangeMinuteOfDay } from '@signals/instruments'
import type { SessionRules } from './session-rules-config.ts'

export type SessionRefusalCode = 'outside_trading_window' | 'max_entries_per_day' | 'max_executions_per_day' | 'news_blackout'

/** The account's entries and executions in the current trading day (the connector counts them). */
export interface SessionCounts {
  entries: number
  executions: number
}

/** One of the administrator's news events, with its blackout around it. */
export interface NewsEvent {
  name: string
  at: Date
  minutesBefore: number
  minutesAfter: number
}

export interface SessionRefusal {
  kind: 'refuse'
  code: SessionRefusalCode
  reason: string
  flatten: boolean
}

const clock = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`
const minuteOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

/** Whether a minute of the day is in [start, end); a window whose end is before its start crosses midnight. */
function inWindow(minute: number, window: { start: string; end: string }): boolean {
  const start = minuteOf(window.start)
  const end = minuteOf(window.end)
  return start < end ? minute >= start && minute < end : minute >= start || minute < end
}

/**
 * The session rules for a new entry at `at` (exits never pass through here): a news blackout first (it
 * may flatten), then the trading windows, then the day's entry and execution caps. Null = allowed.
 */
export function sessionGate(rules: SessionRules, at: Date, counts: SessionCounts, news: readonly NewsEvent[]): SessionRefusal | null {
  return newsGate(rules, at, news) ?? windowGate(rules, at) ?? capGate(rules, counts)
}

function newsGate(rules: SessionRules, at: Date, news: readonly NewsEvent[]): SessionRefusal | null {
  if (!rules.newsBlackout) return null
  const time = at.getTime()
  const event = news.find((candidate) => time >= candidate.at.getTime() - candidate.minutesBefore * 60_000 && time <= candidate.at.getTime() + candidate.minutesAfter * 60_000)
  if (!event) return null
  const until = new Date(event.at.getTime() + event.minutesAfter * 60_000)
  const flattened = rules.flattenBeforeNews ? ': every position is flattened, and' : ':'
  return {
    kind: 'refuse',
    code: 'news_blackout',
    reason: `News blackout for ${event.name} at ${clock(exchangeMinuteOfDay(event.at))} exchange time (${event.minutesBefore} min before, ${event.minutesAfter} min after)${flattened} no new entries until ${clock(exchangeMinuteOfDay(until))}.`,
    flatten: rules.flattenBeforeNews,
  }
}

function windowGate(rules: SessionRules, at: Date): SessionRefusal | null {
  if (rules.tradingWindows.length === 0) return null
  const minute = exchangeMinuteOfDay(at)
  if (rules.tradingWindows.some((window) => inWindow(minute, window))) return null
  const windows = rules.tradingWindows.map((window) => `${window.start}-${window.end}`).join(', ')
  return { kind: 'refuse', code: 'outside_trading_window', reason: `It is ${clock(minute)} exchange time (America/Chicago), outside the trading windows ${windows}: no new entries (exits are always allowed).`, flatten: false }
}

function capGate(rules: SessionRules, counts: SessionCounts): SessionRefusal | null {
  const { maxEntriesPerDay, maxExecutionsPerDay } = rules
  if (maxEntriesPerDay !== null && counts.entries >= maxEntriesPerDay) {
    return { kind: 'refuse', code: 'max_entries_per_day', reason: `${counts.entries} entries were sent this trading day and the limit is ${maxEntriesPerDay}: no new entries until the next trading day.`, flatten: false }
  }
  if (maxExecutionsPerDay !== null && counts.executions >= maxExecutionsPerDay) {
    return { kind: 'refuse', code: 'max_executions_per_day', reason: `${counts.executions} executions were filled this trading day and the limit is ${maxExecutionsPerDay}: no new entries until the next trading day.`, flatten: false }
  }
  return null
}
