/**
 * Ingest scale benchmark (issue 14, point 6): webhook throughput of ingest with one and with two instances
 * on one NATS server, and with one instance on a three-node JetStream cluster (R3 streams), each as a ratio
 * to a bare Fastify route measured in the same run. Every server runs in a child process of its own.
 *
 * Two instances need something in front: autocannon itself spreads its connections over several URLs
 * (connection i goes to url i mod n), so no proxy sits in the path of either target and the
 * figures compare like with like (a proxy would cost the two-instance target a hop the others lack).
 *
 *   pnpm bench ingest-scale
 *   node --import tsx bench/ingest-scale.bench.ts
 */
import { deleteNamespaceStreams, startPrivateNatsCluster, testNamespace } from '@signals/test-support'
import { combine, describeRounds, measureRounds, type RoundsPlan } from './support/webhook-load.ts'
import { startWebhookServer, stopWebhookServer, type WebhookServer } from './support/webhook-server.ts'

const PLAN: RoundsPlan = { connections: 50, rounds: 2, firstWarmUpSeconds: 10, warmUpSeconds: 3, measureSeconds: Number(process.env.BENCH_SECONDS ?? 6) }
const SHARED_NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222'

const TARGETS = ['bare Fastify route', 'ingest x1, one NATS server', 'ingest x2, one NATS server', 'ingest x1, three-node cluster (R3)'] as const
type Target = (typeof TARGETS)[number]

/** Starts every target: the cluster's ingest on R3 streams in a namespace of its own. */
async function startTargets() {
  const cluster = await startPrivateNatsCluster(3)
  const shared = `bench${testNamespace()}`
  const ingest = (natsUrl: string, namespace: string, replicas: number) => startWebhookServer({ kind: 'ingest', natsUrl, namespace, replicas })
  const servers: Record<Target, WebhookServer[]> = {
    'bare Fastify route': [await startWebhookServer({ kind: 'bare' })],
    'ingest x1, one NATS server': [await ingest(SHARED_NATS_URL, `${shared}a`, 1)],
    'ingest x2, one NATS server': [await ingest(SHARED_NATS_URL, `${shared}b`, 1), await ingest(SHARED_NATS_URL, `${shared}b`, 1)],
    'ingest x1, three-node cluster (R3)': [await ingest(cluster.urls, shared, 3)],
  }
  const stop = async () => {
    await Promise.all(Object.values(servers).flat().map(stopWebhookServer))
    await deleteNamespaceStreams(`${shared}a`)
    await deleteNamespaceStreams(`${shared}b`)
    await cluster.destroy()
  }
  return { servers, stop }
}

async function main(): Promise<number> {
  const { servers, stop } = await startTargets()
  let rounds
  try {
    rounds = await measureRounds(TARGETS, (target) => servers[target].map((server) => server.port), PLAN)
  } finally {
    await stop()
  }
  const totals = Object.fromEntries(TARGETS.map((target) => [target, combine(rounds[target])])) as Record<Target, ReturnType<typeof combine>>
  const bare = totals['bare Fastify route']
  const failures = TARGETS.reduce((sum, target) => sum + totals[target].non2xx + totals[target].errors, 0)
  const row = (target: Target) => {
    const f = totals[target]
    return `| ${target} | ${Math.round(f.requestsPerSecond)} | **${(f.requestsPerSecond / bare.requestsPerSecond).toFixed(3)}** | ${f.p50} | ${f.p99} | ${f.non2xx} | ${f.errors} |`
  }
  process.stdout.write(
    [
      '## Ingest: one and two instances, one server and a three-node cluster',
      '',
      describeRounds(PLAN),
      '',
      '| target | req/s | ratio to bare | p50 ms | p99 ms (worst round) | non-2xx | errors |',
      '|---|---|---|---|---|---|---|',
      ...TARGETS.map(row),
      '',
      `Bar: every webhook answered 200 on every target (${failures} failures): **${failures === 0 ? 'PASS' : 'FAIL'}**. The ratios are reported, not barred: on a 2-CPU machine the second instance, NATS and the load generator share the same two cores.`,
      '',
    ].join('\n') + '\n',
  )
  return failures === 0 ? 0 : 1
}

process.exitCode = await main()
