// The webhook load of the ingest benchmarks: autocannon posting distinct entry alerts, rounds that alternate
// the targets, and the figures they print.
import { cpus, loadavg } from 'node:os'
import autocannon from 'autocannon'

export interface Figures {
  requestsPerSecond: number
  p50: number
  p99: number
  non2xx: number
  errors: number
}

/** `connections` connections posting entry alerts for `seconds`; with several ports, connection i goes to port i mod n. */
async function loadWebhook(ports: number[], seconds: number, connections: number): Promise<Figures> {
  let sequence = 0
  const urls = ports.map((port) => `http://127.0.0.1:${port}/webhook/alert`)
  const result = await autocannon({
    // autocannon takes an array of URLs at run time (its types say one string): connections alternate over them.
    url: (urls.length === 1 ? urls[0] : urls) as string,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        // A distinct entry alert each time (no explicit id: the id is the hash of body and user).
        setupRequest: (request) => {
          sequence += 1
          const alert = { action: 'Buy', symbol: 'NQ1!', entryPrice: 15000 + sequence * 0.25, sl: 14950, tp: 15100, user_id: `trader-${sequence % 100}`, indicator: 'Momentum' }
          return { ...request, body: JSON.stringify(alert) }
        },
      },
    ],
  })
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts }
}

export interface RoundsPlan {
  connections: number
  rounds: number
  firstWarmUpSeconds: number
  warmUpSeconds: number
  measureSeconds: number
}

/**
 * Every target first warms up for `firstWarmUpSeconds`; then round by round each target re-warms and is
 * measured, alternating, so a burst of noise on the (shared, busy) machine hits all of them rather than one.
 */
export async function measureRounds<Target extends string>(targets: readonly Target[], portsOf: (target: Target) => number[], plan: RoundsPlan): Promise<Record<Target, Figures[]>> {
  const rounds = Object.fromEntries(targets.map((target) => [target, [] as Figures[]])) as Record<Target, Figures[]>
  for (const target of targets) await loadWebhook(portsOf(target), plan.firstWarmUpSeconds, plan.connections)
  for (let round = 0; round < plan.rounds; round++) {
    for (const target of targets) {
      await loadWebhook(portsOf(target), plan.warmUpSeconds, plan.connections)
      rounds[target].push(await loadWebhook(portsOf(target), plan.measureSeconds, plan.connections))
    }
  }
  return rounds
}

/** The line under a section's title: how the rounds ran, when, and how busy the machine was. */
export function describeRounds(plan: RoundsPlan): string {
  return `${plan.connections} connections; ${plan.rounds} rounds alternating the targets, ${plan.firstWarmUpSeconds} s warm-up per target first, then each round ${plan.warmUpSeconds} s warm-up and ${plan.measureSeconds} s measured; ${new Date().toISOString()}, load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} CPUs.`
}

/** Mean throughput and p50 over rounds; the worst p99; summed failures. */
export function combine(figures: Figures[]): Figures {
  const mean = (pick: (f: Figures) => number) => figures.reduce((sum, f) => sum + pick(f), 0) / figures.length
  return {
    requestsPerSecond: mean((f) => f.requestsPerSecond),
    p50: Math.round(mean((f) => f.p50)),
    p99: Math.max(...figures.map((f) => f.p99)),
    non2xx: figures.reduce((sum, f) => sum + f.non2xx, 0),
    errors: figures.reduce((sum, f) => sum + f.errors, 0),
  }
}
