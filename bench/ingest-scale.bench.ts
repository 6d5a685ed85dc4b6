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
import { fork, type ChildProcess } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import autocannon from 'autocannon'

const CONNECTIONS = 50
const ROUNDS = 2
const FIRST_WARMUP_SECONDS = 10
const WARMUP_SECONDS = 3
const MEASURE_SECONDS = Number(process.env.BENCH_SECONDS ?? 6)
const SHARED_NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222'

interface BareApp {
  post(path: string, handler: () => Promise<unknown>): void
  listen(options: { host: string; port: number }): Promise<string>
  close(): Promise<void>
}

/** Child mode: `--serve bare` or `--serve ingest <nats urls> <namespace> <replicas>`; reports its port. */
async function serve(args: string[]): Promise<void> {
  const { freePort } = await import('@signals/test-support')
  const port = await freePort()
  let close: () => Promise<void>
  if (args[0] === 'bare') {
    const fastifyPath = createRequire(new URL('../services/ingest/package.json', import.meta.url)).resolve('fastify')
    const { default: Fastify } = (await import(pathToFileURL(fastifyPath).href)) as { default: (options: { logger: boolean }) => BareApp }
    const app = Fastify({ logger: false })
    app.post('/webhook/alert', async () => ({ success: true }))
    await app.listen({ host: '127.0.0.1', port })
    close = () => app.close()
  } else {
    const { loadIngestConfig } = await import('../services/ingest/src/config.ts')
    const { buildApp } = await import('../services/ingest/src/app.ts')
    const [, natsUrl, namespace, replicas] = args
    const config = loadIngestConfig({
      ...process.env,
      NATS_URL: natsUrl,
      BUS_NAMESPACE: namespace,
      BUS_REPLICAS: replicas,
      LOG_LEVEL: 'warn',
      INGEST_RATE_LIMIT_PER_MINUTE: '100000000',
    })
    const app = await buildApp(config)
    await app.listen({ host: '127.0.0.1', port })
    close = () => app.close()
  }
  process.send?.({ port })
  process.on('message', (message) => {
    if (message === 'stop') void close().finally(() => process.exit(0))
  })
}

function startServer(args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', ...args], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, port: (message as { port: number }).port }))
    child.once('exit', (code) => reject(new Error(`${args[0]} server exited with ${code}`)))
  })
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.send('stop')
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
  })
}

interface Figures {
  requestsPerSecond: number
  p50: number
  p99: number
  non2xx: number
  errors: number
}

async function load(ports: number[], seconds: number): Promise<Figures> {
  let sequence = 0
  const urls = ports.map((port) => `http://127.0.0.1:${port}/webhook/alert`)
  const result = await autocannon({
    // autocannon takes an array of URLs at run time (its types say one string): connections alternate over them.
    url: (urls.length === 1 ? urls[0] : urls) as string,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
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

function combine(figures: Figures[]): Figures {
  const mean = (pick: (f: Figures) => number) => figures.reduce((sum, f) => sum + pick(f), 0) / figures.length
  return {
    requestsPerSecond: mean((f) => f.requestsPerSecond),
    p50: Math.round(mean((f) => f.p50)),
    p99: Math.max(...figures.map((f) => f.p99)),
    non2xx: figures.reduce((sum, f) => sum + f.non2xx, 0),
    errors: figures.reduce((sum, f) => sum + f.errors, 0),
  }
}

const TARGETS = ['bare Fastify route', 'ingest x1, one NATS server', 'ingest x2, one NATS server', 'ingest x1, three-node cluster (R3)'] as const
type Target = (typeof TARGETS)[number]

/** Starts every target: the cluster's ingest on R3 streams in a namespace of its own. */
async function startTargets() {
  const { startPrivateNatsCluster, testNamespace } = await import('@signals/test-support')
  const cluster = await startPrivateNatsCluster(3)
  const shared = `bench${testNamespace()}`
  const ingest = (url: string, namespace: string, replicas: string) => startServer(['ingest', url, namespace, replicas])
  const servers: Record<Target, { child: ChildProcess; port: number }[]> = {
    'bare Fastify route': [await startServer(['bare'])],
    'ingest x1, one NATS server': [await ingest(SHARED_NATS_URL, `${shared}a`, '1')],
    'ingest x2, one NATS server': [await ingest(SHARED_NATS_URL, `${shared}b`, '1'), await ingest(SHARED_NATS_URL, `${shared}b`, '1')],
    'ingest x1, three-node cluster (R3)': [await ingest(cluster.urls, shared, '3')],
  }
  const stop = async () => {
    await Promise.all(Object.values(servers).flat().map((server) => stopServer(server.child)))
    const { deleteNamespaceStreams } = await import('@signals/test-support')
    await deleteNamespaceStreams(`${shared}a`)
    await deleteNamespaceStreams(`${shared}b`)
    await cluster.destroy()
  }
  return { servers, stop }
}

async function main(): Promise<number> {
  const { servers, stop } = await startTargets()
  const rounds = Object.fromEntries(TARGETS.map((target) => [target, [] as Figures[]])) as Record<Target, Figures[]>
  const portsOf = (target: Target) => servers[target].map((server) => server.port)
  try {
    for (const target of TARGETS) await load(portsOf(target), FIRST_WARMUP_SECONDS)
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of TARGETS) {
        await load(portsOf(target), WARMUP_SECONDS)
        rounds[target].push(await load(portsOf(target), MEASURE_SECONDS))
      }
    }
  } finally {
    await stop()
  }
  const bare = combine(rounds['bare Fastify route'])
  const failures = TARGETS.reduce((sum, target) => sum + combine(rounds[target]).non2xx + combine(rounds[target]).errors, 0)
  const row = (target: Target) => {
    const f = combine(rounds[target])
    return `| ${target} | ${Math.round(f.requestsPerSecond)} | **${(f.requestsPerSecond / bare.requestsPerSecond).toFixed(3)}** | ${f.p50} | ${f.p99} | ${f.non2xx} | ${f.errors} |`
  }
  process.stdout.write(
    [
      '## Ingest: one and two instances, one server and a three-node cluster',
      '',
      `${CONNECTIONS} connections; ${ROUNDS} rounds alternating the targets, ${FIRST_WARMUP_SECONDS} s warm-up per target first, then each round ${WARMUP_SECONDS} s warm-up and ${MEASURE_SECONDS} s measured; ${new Date().toISOString()}, load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} CPUs.`,
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

const serveIndex = process.argv.indexOf('--serve')
if (serveIndex !== -1) {
  await serve(process.argv.slice(serveIndex + 1))
} else {
  process.exitCode = await main()
}
