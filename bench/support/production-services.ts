// Every service as production runs it (`pnpm build`'s dist/main.js, NODE_ENV=production, the NODE_OPTIONS
// of infra/Dockerfile's runtime stage), each in a process of its own, for the benchmarks that measure the
// whole platform (memory at rest, the platform under load).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { waitFor } from '@signals/test-support'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const SERVICES = ['gateway', 'ingest', 'auth', 'settings', 'admin', 'broker-connector'] as const
export type ServiceName = (typeof SERVICES)[number]

/** `pnpm build`, unless BENCH_SKIP_BUILD=1 (measure the dist/ already built). */
export function buildProduction(): void {
  if (process.env.BENCH_SKIP_BUILD === '1') return
  const build = spawnSync('pnpm', ['run', 'build'], { cwd: root, encoding: 'utf8' })
  if (build.status !== 0) throw new Error(`pnpm build failed:\n${build.stdout}${build.stderr}`)
}

/** A variable infra/Dockerfile sets (the last setting: the runtime stage), so the bench runs what production runs. */
function imageVariable(name: string, checkout: string): string | undefined {
  const dockerfile = readFileSync(path.join(checkout, 'infra/Dockerfile'), 'utf8')
  const settings = [...dockerfile.matchAll(new RegExp(`${name}=(?:"([^"]*)"|(\\S+))`, 'g'))]
  const last = settings.at(-1)
  return last && (last[1] ?? last[2] ?? '')
}

/** The image's NODE_OPTIONS (of this checkout's Dockerfile unless another is given). */
export function imageNodeOptions(checkout = root): string {
  const options = imageVariable('NODE_OPTIONS', checkout)
  if (options === undefined) throw new Error('infra/Dockerfile sets no NODE_OPTIONS')
  return options
}

/** The image's GLIBC_TUNABLES, how malloc gives memory back (docs/decisions/memory.md); none: glibc's defaults. */
export const imageMallocTunables = (checkout = root): string => imageVariable('GLIBC_TUNABLES', checkout) ?? ''

const secret = (bytes = 32) => randomBytes(bytes).toString('base64url')
const variable = (name: string) => name.replace('-', '_').toUpperCase()

export interface ProductionEnvOptions {
  nodeOptions: string
  /** GLIBC_TUNABLES; none (glibc's defaults) when empty. */
  mallocTunables: string
  databaseUrl: string
  redisUrl: string
  natsUrl: string
  namespace: string
  port: (service: ServiceName) => number
}

/** The environment every service starts with: production mode, real stores, each *_PORT and *_URL set. */
export function productionEnv(options: ProductionEnvOptions): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    NODE_OPTIONS: options.nodeOptions,
    ...(options.mallocTunables ? { GLIBC_TUNABLES: options.mallocTunables } : {}),
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    NATS_URL: options.natsUrl,
    BUS_NAMESPACE: options.namespace,
    PUBLIC_URL: 'https://signals.example.org',
    // A name that does not resolve: auth looks it up in the background at start (production refuses a local one).
    OIDC_ISSUER: 'https://issuer.invalid',
    OIDC_CLIENT_ID: 'signals-bench',
    OIDC_CLIENT_SECRET: secret(),
    ADMIN_EMAIL: 'operator@signals.example.org',
    SESSION_SECRET: secret(),
    INTERNAL_AUTH_SECRET: secret(),
    CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_SECRET: secret(),
    METRICS_TOKEN: secret(),
    ...Object.fromEntries(SERVICES.flatMap((name) => [
      [`${variable(name)}_PORT`, String(options.port(name))],
      [`${variable(name)}_URL`, `http://127.0.0.1:${options.port(name)}`],
    ])),
  }
}

export interface NodeProcess {
  name: string
  child: ChildProcess
  port: number
  stderr: string[]
}

/** Runs `node <args>` in `cwd` (the repository by default); its stderr is kept for the error it may die with. */
export function startNode(name: string, args: string[], env: NodeJS.ProcessEnv, port: number, cwd = root): NodeProcess {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] })
  const started: NodeProcess = { name, child, port, stderr: [] }
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (chunk: string) => started.stderr.push(chunk))
  return started
}

/** A service's compiled main (in `checkout`: this repository unless given); `execArgv` adds Node options (a CPU profile). */
export const startService = (name: ServiceName, env: NodeJS.ProcessEnv, port: number, execArgv: string[] = [], checkout = root): NodeProcess =>
  startNode(name, [...execArgv, `services/${name}/dist/main.js`], env, port, checkout)

/** Resolves once `/health` answers 200; throws if the process exits first. */
export async function waitHealthy(started: NodeProcess, timeoutMs = 180_000): Promise<void> {
  const healthy = async () => {
    if (started.child.exitCode !== null) throw new Error(`${started.name} exited (${started.child.exitCode}): ${started.stderr.join('')}`)
    return fetch(`http://127.0.0.1:${started.port}/health`).then((response) => response.ok, () => false)
  }
  await waitFor(async () => ((await healthy()) ? true : undefined), { timeoutMs, intervalMs: 250, what: `${started.name} /health` })
}
