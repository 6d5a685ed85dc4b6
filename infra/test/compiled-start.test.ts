import t from 'tap'
import { spawn, spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { deleteNamespaceStreams, eventually, testNamespace, TEST_NATS_URL } from '@signals/test-support'

// The production build (issue 21 items 2 and 3): a service built by `pnpm build` is one bundled module,
// dist/main.js, plus dist/chunks/ for what only a dynamic import reaches (docs/decisions/memory.md), that
// starts with plain node, no tsx, and answers /health. Ingest stands for all: it needs only NATS. Tracing is
// on (a collector address nothing listens at: spans are only sent in batches later), so the OpenTelemetry
// SDK's chunks are loaded at start and must resolve. Type stripping is turned off so a TypeScript file reached by mistake
// (an external package resolving to a workspace's sources) fails the start.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

t.test('ingest built to dist/ starts with plain node and answers /health', async (t) => {
  const build = spawnSync('pnpm', ['--filter', '@signals/ingest...', '--workspace-concurrency=2', 'run', 'build'], { cwd: root, encoding: 'utf8', timeout: 120_000 })
  t.equal(build.status, 0, `ingest and its packages compile${build.status === 0 ? '' : `: ${build.stdout}${build.stderr}`}`)
  t.same(readdirSync(path.join(root, 'services/ingest/dist')).sort(), ['chunks', 'main.js'], 'the service is one bundled module and its chunks')
  t.ok(readdirSync(path.join(root, 'services/ingest/dist/chunks')).length > 0, 'the tracing SDK is split into chunks')

  const port = await freePort()
  const namespace = testNamespace()
  const child = spawn(process.execPath, ['--no-experimental-strip-types', '--conditions=compiled', 'services/ingest/dist/main.js'], {
    cwd: root,
    env: { PATH: process.env.PATH, NODE_ENV: 'development', INGEST_PORT: String(port), NATS_URL: TEST_NATS_URL, BUS_NAMESPACE: namespace, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await freePort()}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  t.teardown(async () => {
    child.kill('SIGTERM')
    await deleteNamespaceStreams(namespace)
  })

  let health: { status?: string; service?: string } | undefined
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`ingest exited ${child.exitCode}: ${output}`)
      const response = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined)
      if (!response?.ok) return false
      health = (await response.json()) as typeof health
      return true
    },
    { timeoutMs: 30_000, what: 'the compiled ingest to answer /health' },
  )
  t.match(health, { status: 'ok', service: 'ingest' }, '/health answers from the compiled service')
  t.notMatch(output, /tsx|ERR_UNKNOWN_FILE_EXTENSION|ERR_UNSUPPORTED/, 'nothing on the way loaded TypeScript')
})
