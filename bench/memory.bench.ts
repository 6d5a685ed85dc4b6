// Memory at rest (issue 21 item 3): every service as production runs it (`pnpm build`, NODE_ENV=production,
// the NODE_OPTIONS of infra/Dockerfile's runtime stage) beside a bare Fastify process (one route, the same
// Node and options), all started together, then left idle for two minutes (BENCH_IDLE_SECONDS); each one's
// resident set size is read from /proc. Bar: every service under 80 MiB. The bare process shows what Node
// and Fastify alone hold on this machine and Node version, so the figures that matter are the differences.
// Real Postgres, Redis and NATS; the identity provider's address is a name that does not resolve (auth
// looks it up in the background at start and again at the first sign-in; production refuses a local one).
// BENCH_SKIP_BUILD=1 measures the dist/ already built; BENCH_NODE_OPTIONS and BENCH_MALLOC_TUNABLES replace
// the image's NODE_OPTIONS and GLIBC_TUNABLES (to price a setting before it goes into the image);
// BENCH_NODE_FLAGS adds V8 flags NODE_OPTIONS refuses to this build's node command lines.
// Beside this build, in the same run, each on a bus namespace of its own (its gateway forwards to its own
// services): BENCH_BASELINE=<a checkout, built> runs that checkout's services as its image would (before and
// after a change); BENCH_BESIDE_DEFAULT_MALLOC=1 runs this build again with glibc's malloc defaults.
import { loadavg } from 'node:os'
import path from 'node:path'
import { createTestDatabase, deleteNamespaceStreams, freePort, stopChild, testNamespace, TEST_NATS_URL, TEST_REDIS_URL } from '@signals/test-support'
import { buildProduction, imageMallocTunables, imageNodeOptions, productionEnv, root, SERVICES, startNode, startService, waitHealthy, type NodeProcess } from './support/production-services.ts'
import { residentMemory, type ResidentMemory } from './support/resident-memory.ts'

const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 120) * 1000
const BAR_MIB = 80
const out = (line = '') => process.stdout.write(`${line}\n`)

const BARE_FASTIFY = `import Fastify from 'fastify'
const app = Fastify({ logger: { level: 'warn' } })
app.get('/health', async () => ({ status: 'ok' }))
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })`

type Measured = NodeProcess & { metricsToken?: string }

/** V8's heap (used, committed) and external memory from a service's /metrics (prom-client's defaults), in MiB. */
async function heapOf(measured: Measured): Promise<{ used: number; committed: number; external: number } | undefined> {
  const response = await fetch(`http://127.0.0.1:${measured.port}/metrics`, { headers: { authorization: `Bearer ${measured.metricsToken ?? ''}` } }).catch(() => undefined)
  if (!response?.ok) return undefined
  const text = await response.text()
  const gauge = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) / 1024 / 1024
  return { used: gauge('nodejs_heap_size_used_bytes'), committed: gauge('nodejs_heap_size_total_bytes'), external: gauge('nodejs_external_memory_bytes') }
}

buildProduction()

const nodeOptions = process.env.BENCH_NODE_OPTIONS ?? imageNodeOptions()
const mallocTunables = process.env.BENCH_MALLOC_TUNABLES ?? imageMallocTunables()
const baseline = process.env.BENCH_BASELINE === undefined ? undefined : path.resolve(process.env.BENCH_BASELINE)
// V8 flags NODE_OPTIONS refuses (`--bytecode-old-age`): on the node command line of this build's processes.
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean)
const variants = [
  { label: '', checkout: root, nodeOptions, mallocTunables, nodeFlags },
  ...(baseline === undefined ? [] : [{ label: ` (before: ${path.basename(baseline)})`, checkout: baseline, nodeOptions: imageNodeOptions(baseline), mallocTunables: imageMallocTunables(baseline), nodeFlags: [] }]),
  ...(process.env.BENCH_BESIDE_DEFAULT_MALLOC === '1' ? [{ label: ' (glibc defaults)', checkout: root, nodeOptions, mallocTunables: '', nodeFlags }] : []),
]
const database = await createTestDatabase()
const namespaces: string[] = []
const processes: Measured[] = []
for (const variant of variants) {
  const namespace = testNamespace()
  namespaces.push(namespace)
  const ports = new Map<string, number>()
  for (const name of [...SERVICES, 'bare']) ports.set(name, await freePort())
  const port = (name: string) => ports.get(name) ?? 0
  const env = productionEnv({ nodeOptions: variant.nodeOptions, mallocTunables: variant.mallocTunables, databaseUrl: database.url, redisUrl: TEST_REDIS_URL, natsUrl: TEST_NATS_URL, namespace, port })
  // Fastify resolves from ingest's dependencies: the same copy the services bundle.
  processes.push(
    { ...startNode('bare Fastify', [...variant.nodeFlags, '--input-type=module', '-e', BARE_FASTIFY], { ...env, PORT: String(port('bare')) }, port('bare'), path.join(variant.checkout, 'services/ingest')), name: `bare Fastify${variant.label}` },
    ...SERVICES.map((name) => ({ ...startService(name, env, port(name), variant.nodeFlags, variant.checkout), name: `${name}${variant.label}`, metricsToken: env.METRICS_TOKEN ?? '' })),
  )
}

let passed = false
try {
  for (const measured of processes) await waitHealthy(measured)
  const load = loadavg()[0] ?? 0
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
  const readings = processes.map((measured) => {
    if (measured.child.exitCode !== null || measured.child.pid === undefined) throw new Error(`${measured.name} exited while idle: ${measured.stderr.join('')}`)
    return { name: measured.name, memory: residentMemory(measured.child.pid) }
  })
  // Read after every resident figure, so these requests do not count in it.
  const heaps = new Map(await Promise.all(processes.map(async (measured) => [measured.name, await heapOf(measured)] as const)))
  const mib = (value: number) => value.toFixed(1)
  out(`## Memory at rest: every service ${IDLE_MS / 1000} s idle, production build, beside a bare Fastify process`)
  out()
  out(`Node ${process.version}, NODE_OPTIONS=\`${nodeOptions}\`, node flags \`${nodeFlags.join(' ')}\`, GLIBC_TUNABLES=\`${mallocTunables}\`, load average ${load.toFixed(1)} at start, ${new Date().toISOString()}`)
  out()
  out('| process | resident MiB | own (anonymous) MiB | mapped files MiB | proportional (Pss) MiB | V8 heap used / committed MiB | external MiB | resident over bare Fastify | bar |')
  out('|---|---|---|---|---|---|---|---|---|')
  const perVariant = SERVICES.length + 1
  for (let first = 0; first < readings.length; first += perVariant) {
    const [bare, ...services] = readings.slice(first, first + perVariant)
    if (!bare) throw new Error('no bare Fastify reading')
    const row = (name: string, memory: ResidentMemory, verdict: string) => {
      const heap = heaps.get(name)
      const heapCells = heap ? `${mib(heap.used)} / ${mib(heap.committed)} | ${mib(heap.external)}` : '(no /metrics) | '
      out(`| ${name} | ${mib(memory.resident)} | ${mib(memory.anonymous)} | ${mib(memory.file)} | ${mib(memory.proportional)} | ${heapCells} | ${name === bare.name ? '' : `+${mib(memory.resident - bare.memory.resident)}`} | ${verdict} |`)
    }
    row(bare.name, bare.memory, '')
    for (const { name, memory } of services) row(name, memory, memory.resident < BAR_MIB ? `PASS (< ${BAR_MIB})` : `FAIL (${mib(memory.resident - BAR_MIB)} over)`)
  }
  // The verdict is the image's configuration: the first set.
  passed = readings.slice(1, perVariant).every(({ memory }) => memory.resident < BAR_MIB)
} finally {
  await Promise.all(processes.map((measured) => stopChild(measured.child, { graceMs: 10_000 })))
  for (const namespace of namespaces) await deleteNamespaceStreams(namespace)
  await database.drop()
}
process.exit(passed ? 0 : 1)
