import t from 'tap'
import { spawn, spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { deleteNamespaceStreams, eventually, testNamespace, TEST_NATS_URL, TEST_REDIS_URL } from '@signals/test-support'

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

// Both services and their packages in one build: the packages they share (bus, config, contracts, http-kit,
// instruments, test-support) are compiled once, not once for each (issue 21: CI's time).
const build = spawnSync('pnpm', ['--filter', '@signals/ingest...', '--filter', '@signals/gateway...', '--workspace-concurrency=2', 'run', 'build'], { cwd: root, encoding: 'utf8', timeout: 180_000 })
t.equal(build.status, 0, `ingest, the gateway and their packages compile${build.status === 0 ? '' : `: ${build.stdout}${build.stderr}`}`)

t.test('ingest built to dist/ starts with plain node and answers /health', async (t) => {
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

// The gateway's bundle replaces two dependencies' ways of loading (scripts/bundle-service.ts,
// docs/decisions/memory.md): @fastify/reply-from gets undici's dispatchers without undici's index, and
// @fastify/swagger-ui is bundled and serves Swagger UI's files from the folder it is installed in;
// @fastify/swagger's yaml is a chunk required at its first use. All are shown from the build: a webhook
// reaches its upstream through the proxy, and /docs serves its page, its files and the document as YAML.
t.test('the gateway built to dist/ proxies through undici and serves Swagger UI from its installed folder', async (t) => {
  // The upstream (ingest's address): answers every request with what it received.
  const seen: { method?: string; url?: string; body: string }[] = []
  const upstream = createHttpServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, body })
      response.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ upstream: true }))
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`
  const nowhere = `http://127.0.0.1:${await freePort()}`

  const port = await freePort()
  const namespace = testNamespace()
  const child = spawn(process.execPath, ['--no-experimental-strip-types', '--conditions=compiled', 'services/gateway/dist/main.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      GATEWAY_PORT: String(port),
      REDIS_URL: TEST_REDIS_URL,
      NATS_URL: TEST_NATS_URL,
      BUS_NAMESPACE: namespace,
      SESSION_SECRET: 'compiled-start-session-secret-0123456789',
      INTERNAL_AUTH_SECRET: 'compiled-start-internal-secret-0123456789',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      INGEST_URL: upstreamUrl,
      AUTH_URL: nowhere,
      SETTINGS_URL: nowhere,
      ADMIN_URL: nowhere,
      BROKER_CONNECTOR_URL: nowhere,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  t.teardown(async () => {
    child.kill('SIGTERM')
    upstream.close()
    await deleteNamespaceStreams(namespace)
  })
  const base = `http://127.0.0.1:${port}`
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`the gateway exited ${child.exitCode}: ${output}`)
      const response = await fetch(`${base}/health`).catch(() => undefined)
      return response?.ok === true
    },
    { timeoutMs: 30_000, what: 'the compiled gateway to answer /health' },
  )

  const webhook = await fetch(`${base}/webhook/alert/some-token`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'BUY MES' })
  t.equal(webhook.status, 202, 'the upstream answer comes back through the proxy')
  t.same(await webhook.json(), { upstream: true })
  t.match(seen, [{ method: 'POST', url: '/webhook/alert/some-token', body: 'BUY MES' }], 'the upstream received the request as sent')

  const page = await fetch(`${base}/docs`)
  t.equal(page.status, 200, '/docs answers')
  t.match(await page.text(), /swagger-ui/i, 'with Swagger UI\'s page')
  const logo = await fetch(`${base}/docs/static/logo.svg`)
  t.equal(logo.status, 200, 'Swagger UI\'s logo is served from its installed folder')
  t.match(logo.headers.get('content-type'), /image\/svg\+xml/)
  const script = await fetch(`${base}/docs/static/swagger-ui-bundle.js`)
  t.equal(script.status, 200, 'and so is its script')
  t.ok((await script.arrayBuffer()).byteLength > 100_000, 'whole')
  // The yaml swagger writes it with is a chunk of its own, loaded at this first call (scripts/bundle-service.ts).
  const yaml = await fetch(`${base}/docs/yaml`)
  t.equal(yaml.status, 200, 'the document as YAML answers')
  t.match(await yaml.text(), /^openapi: 3\.0\.3$/m, 'written by yaml from its chunk')
  t.notMatch(output, /tsx|ERR_UNKNOWN_FILE_EXTENSION|ERR_UNSUPPORTED/, 'nothing on the way loaded TypeScript')
})
