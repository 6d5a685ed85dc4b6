/**
 * Ingest benchmark (issue 6, point 10): 50 connections posting entry alerts to the real ingest service
 * (parse, normalize, durable JetStream publish, intake log) beside a bare Fastify route answering
 * `{success:true}`, in one run on the real NATS. Each server runs in a child process of its own, so the
 * load generator does not share their event loop. Prints a markdown section; exits 1 when the bar is missed.
 *
 *   pnpm bench                          (all benchmarks)
 *   node --import tsx bench/ingest.bench.ts
 *
 * BENCH_SERVER_NODE_FLAGS gives both servers Node/V8 flags (e.g. `--max-semi-space-size=1`, to price a flag
 * of the image's NODE_OPTIONS in throughput: run once with and once without, side by side).
 */
import { deleteNamespaceStreams, testNamespace } from '@signals/test-support'
import { combine, describeRounds, measureRounds, type Figures, type RoundsPlan } from './support/webhook-load.ts'
import { startWebhookServer, stopWebhookServer } from './support/webhook-server.ts'

/**
 * The bar is about the steady state. Ingest has far more code on its path than the bare route and keeps
 * getting faster for a while: after a 2 s warm-up its first round ran 5-15 % below its second in every run,
 * and still 1-13 % below after 5 s. So each target first takes 15 s of load, then every round re-warms
 * it for 3 s (the other target ran meanwhile) before measuring.
 */
const PLAN: RoundsPlan = { connections: 50, rounds: 3, firstWarmUpSeconds: 15, warmUpSeconds: 3, measureSeconds: Number(process.env.BENCH_SECONDS ?? 8) }
const BAR = { minRatio: 0.4, maxP99Ms: 50 }
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222'

/** Both servers run side by side; the load alternates between them round by round. */
async function main(): Promise<number> {
  const namespace = `bench${testNamespace()}`
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []
  const flags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean)
  const servers = {
    bare: await startWebhookServer({ kind: 'bare' }, flags),
    ingest: await startWebhookServer({ kind: 'ingest', natsUrl: NATS_URL, namespace, replicas: 1 }, [...flags, ...profile]),
  }
  let rounds
  try {
    rounds = await measureRounds(['bare', 'ingest'] as const, (role) => [servers[role].port], PLAN)
  } finally {
    await Promise.all([stopWebhookServer(servers.bare), stopWebhookServer(servers.ingest)])
    await deleteNamespaceStreams(namespace)
  }
  const bare = combine(rounds.bare)
  const ingest = combine(rounds.ingest)
  const ratio = ingest.requestsPerSecond / bare.requestsPerSecond
  const pass = ratio >= BAR.minRatio && ingest.p99 < BAR.maxP99Ms && ingest.non2xx === 0 && ingest.errors === 0
  const row = (name: string, f: Figures) => `| ${name} | ${Math.round(f.requestsPerSecond)} | ${f.p50} | ${f.p99} | ${f.non2xx} | ${f.errors} |`
  process.stdout.write(
    [
      '## Ingest: webhook throughput',
      '',
      describeRounds(PLAN),
      ...(flags.length > 0 ? ['', `Both servers run with \`${flags.join(' ')}\`.`] : []),
      '',
      '| target | req/s | p50 ms | p99 ms | non-2xx | errors |',
      '|---|---|---|---|---|---|',
      ...rounds.bare.map((figures, round) => row(`bare Fastify route \`{success:true}\`, round ${round + 1}`, figures)),
      ...rounds.ingest.map((figures, round) => row(`ingest \`POST /webhook/alert\` (entry alert, JetStream ack), round ${round + 1}`, figures)),
      row('**bare, all rounds**', bare),
      row('**ingest, all rounds**', ingest),
      '',
      `Ratio ingest / bare: **${ratio.toFixed(3)}** (bar >= ${BAR.minRatio}); ingest p99 **${ingest.p99} ms** (worst round; bar < ${BAR.maxP99Ms} ms): **${pass ? 'PASS' : 'FAIL'}**`,
      '',
    ].join('\n') + '\n',
  )
  return pass ? 0 : 1
}

process.exitCode = await main()
