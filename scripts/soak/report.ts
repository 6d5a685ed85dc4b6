import type { Outcome } from './checks.ts'
import type { ApiTally, WebhookTally } from './load.ts'
import { slope, type Sample } from './samples.ts'

export interface SoakFigures {
  minutes: number
  traders: number
  entriesPerSecond: number
  ingestInstances: number
  connectorInstances: number
  warmUpSeconds: number
  samples: Sample[]
  /** Seconds the consumers took to reach 0 lag after the load stopped (null: they did not). */
  drainSeconds: number | null
  webhooks: WebhookTally
  api: ApiTally
  outcome: Outcome
}

export interface Verdict {
  passed: boolean
  problems: string[]
}

/** Lost or doubled anything, two orders for one record, or a lag that never drained: the soak failed. */
export function verdict(figures: SoakFigures): Verdict {
  const { outcome, webhooks } = figures
  const problems: string[] = []
  const twoOrders = [...outcome.ordersPerRecord.values()].filter((n) => n > 1).length
  if (outcome.entriesLost.length) problems.push(`${outcome.entriesLost.length} entry alerts lost records (e.g. ${outcome.entriesLost.slice(0, 3).join(', ')})`)
  if (outcome.entriesDoubled.length) problems.push(`${outcome.entriesDoubled.length} entry alerts doubled records`)
  if (outcome.resultsLost.length) problems.push(`${outcome.resultsLost.length} result alerts missing from the intake log`)
  if (twoOrders) problems.push(`${twoOrders} records with two or more orders at the broker`)
  if (outcome.recordsWithTwoTrades) problems.push(`${outcome.recordsWithTwoTrades} records opened two trades`)
  if (outcome.tradesStillOpen) problems.push(`${outcome.tradesStillOpen} trades still open after the closing Exit alert`)
  if (figures.drainSeconds === null) problems.push('the consumers did not drain (lag grew without bound)')
  const refused = [...webhooks.refused.values()].reduce((sum, n) => sum + n, 0)
  if (refused) problems.push(`${refused} webhooks not answered 200 (${[...webhooks.refused].map(([status, n]) => `${status}: ${n}`).join(', ')})`)
  const apiFailures = [...figures.api].filter(([key]) => /\s(0|5\d\d)$/.test(key))
  if (apiFailures.length) problems.push(`web API failures (${apiFailures.map(([key, n]) => `${key}: ${n}`).join(', ')})`)
  return { passed: problems.length === 0, problems }
}

const mib = (value: number | null | undefined) => (value === null || value === undefined ? 'gone' : value.toFixed(1))

/** Start, after warm-up, end and the slope after warm-up of one per-service figure. */
function memoryRow(figures: SoakFigures, name: string, pick: (sample: Sample) => number | null | undefined): string {
  const settled = figures.samples.filter((sample) => sample.at >= figures.warmUpSeconds)
  const points = settled.filter((sample) => pick(sample) != null)
  const perMinute = slope(points.map((sample) => sample.at / 60), points.map((sample) => pick(sample) as number))
  const first = figures.samples[0]
  const last = figures.samples.at(-1)
  return `${mib(first && pick(first))} | ${mib(settled[0] && pick(settled[0]))} | ${mib(last && pick(last))} | ${points.length >= 3 ? perMinute.toFixed(2) : 'too few samples'}`
}

/**
 * Resident memory and the heap left after each full collection. RSS also holds garbage not yet collected
 * and heap V8 keeps for the next burst, so it climbs with the allocation rate; the heap after GC is
 * what a leak grows (docs/operations.md, "Reading the memory figures").
 */
function memoryTable(figures: SoakFigures): string[] {
  const lines = [
    '| service | RSS at start (MiB) | after warm-up | at end | RSS slope after warm-up (MiB/min) | heap after GC at start (MiB) | after warm-up | at end | heap slope after warm-up (MiB/min) |',
    '|---|---|---|---|---|---|---|---|---|',
  ]
  for (const name of Object.keys(figures.samples[0]?.rssMiB ?? {})) {
    lines.push(`| ${name} | ${memoryRow(figures, name, (sample) => sample.rssMiB[name])} | ${memoryRow(figures, name, (sample) => sample.liveHeapMiB[name])} |`)
  }
  return lines
}

/** The markdown report. */
export function renderReport(figures: SoakFigures, result: Verdict): string {
  const { outcome, webhooks } = figures
  const orders = [...outcome.ordersPerRecord.values()]
  const maxLag = Math.max(0, ...figures.samples.map((sample) => sample.lag))
  const worst = figures.samples.reduce<Sample['worstConsumer']>((found, sample) => (sample.worstConsumer && sample.worstConsumer.lag > (found?.lag ?? -1) ? sample.worstConsumer : found), null)
  const settled = figures.samples.filter((sample) => sample.at >= figures.warmUpSeconds)
  const lagSlope = slope(settled.map((sample) => sample.at / 60), settled.map((sample) => sample.lag))
  const apiLines = [...figures.api].sort().map(([key, n]) => `${key}: ${n}`).join(', ')
  return [
    `## Soak: ${figures.minutes} min, ${figures.traders} live traders, ${figures.entriesPerSecond} entry + ${figures.entriesPerSecond} result alerts/s`,
    '',
    `${figures.ingestInstances} ingest and ${figures.connectorInstances} broker-connector instances, gateway, auth, settings, admin: each its own process; the paper broker and the development provider in the soak's process. Samples every ${figures.samples.length > 1 ? Math.round((figures.samples[1]?.at ?? 0) - (figures.samples[0]?.at ?? 0)) : '?'} s; warm-up ${figures.warmUpSeconds} s.`,
    '',
    '### Memory',
    '',
    ...memoryTable(figures),
    '',
    '### Consumer lag (pending + ack-pending, all consumers)',
    '',
    `Max ${maxLag} (worst single consumer ${worst ? `${worst.name}: ${worst.lag}` : 'none'}); samples: ${figures.samples.map((sample) => sample.lag).join(', ')}; slope after warm-up ${lagSlope.toFixed(2)} messages/min. ` +
      (figures.drainSeconds === null ? 'Did **not** drain after the load stopped.' : `Drained to 0 ${figures.drainSeconds.toFixed(0)} s after the load stopped.`),
    '',
    '### Alerts, records, orders, trades',
    '',
    '| figure | value |',
    '|---|---|',
    `| entry alerts sent / 200 / with one record per live trader | ${webhooks.entryIds.length} / ${outcome.entriesAccepted} / ${outcome.entriesAccepted - outcome.entriesLost.length - outcome.entriesDoubled.length} |`,
    `| result alerts sent / 200 / in the intake log | ${webhooks.resultIds.length} / ${outcome.resultsAccepted} / ${outcome.resultsAccepted - outcome.resultsLost.length} |`,
    `| lost / doubled | **${outcome.entriesLost.length + outcome.resultsLost.length} / ${outcome.entriesDoubled.length}** |`,
    `| resends after 503 or no answer | ${webhooks.resends} |`,
    `| records by status | ${Object.entries(outcome.recordsByStatus).map(([status, n]) => `${status} ${n}`).join(', ')} |`,
    `| refusals and failures (top reasons) | ${Object.entries(outcome.reasons).map(([reason, n]) => `${reason}: ${n}`).join('; ') || 'none'} |`,
    `| tagged records with 0 / 1 / 2+ orders at the broker | ${orders.filter((n) => n === 0).length} / ${orders.filter((n) => n === 1).length} / **${orders.filter((n) => n > 1).length}** |`,
    `| broker orders without a record | ${outcome.ordersWithoutRecord} |`,
    `| trades opened / closed / still open / records with two trades | ${outcome.tradesOpened} / ${outcome.tradesClosed} / ${outcome.tradesStillOpen} / **${outcome.recordsWithTwoTrades}** |`,
    `| trades closed by | ${Object.entries(outcome.closedBy).map(([result, n]) => `${result} ${n}`).join(', ') || 'none'} |`,
    `| web API answers (path status: count) | ${apiLines} |`,
    '',
    result.passed ? '**PASS**' : `**FAIL**: ${result.problems.join('; ')}`,
    '',
  ].join('\n')
}
