// `pnpm start`: migrates the database and runs the whole platform in the foreground, one child process per
// service, development parts (the local OpenID Connect provider, the Tradovate and ProjectX paper brokers) included unless
// NODE_ENV=production. Ctrl-C stops everything; a service that dies stops everything too (fail fast).
// `pnpm dev` (--watch): each service runs under `tsx watch` and restarts when its code changes; a service
// that crashes then waits for the fix instead of stopping the platform.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureDatabase, migrateToLatest } from '@signals/db'
import { ConfigError, Env, loadConfigOrExit, refuseSharedPorts, Type } from '@signals/config'
import { buildWeb } from '../services/gateway/scripts/build-web.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const production = process.env.NODE_ENV === 'production'
const watch = process.argv.includes('--watch')

/** Development secrets are generated once and kept in .dev/secrets.env (git-ignored), so sessions and stored
 * broker credentials survive a restart. Production must set them. */
function developmentSecrets(): Record<string, string> {
  const file = path.join(root, '.dev', 'secrets.env')
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true })
    const generated = {
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      INTERNAL_AUTH_SECRET: randomBytes(32).toString('base64url'),
      CREDENTIALS_KEY: randomBytes(32).toString('base64'),
      OIDC_CLIENT_SECRET: randomBytes(24).toString('base64url'),
    }
    writeFileSync(file, Object.entries(generated).map(([k, v]) => `${k}=${v}`).join('\n') + '\n', { mode: 0o600 })
  }
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  )
}

function projectXPaperEndpoints(port: string): NodeJS.ProcessEnv {
  const base = `http://127.0.0.1:${port}`
  const endpoints: NodeJS.ProcessEnv = {}
  for (const environment of ['DEMO', 'LIVE']) {
    endpoints[`PROJECTX_${environment}_API_URL`] = base
    endpoints[`PROJECTX_${environment}_USER_HUB_URL`] = `${base}/hubs/user`
    endpoints[`PROJECTX_${environment}_MARKET_HUB_URL`] = `${base}/hubs/market`
  }
  return endpoints
}

const env: NodeJS.ProcessEnv = {
  ...(production ? {} : developmentSecrets()),
  // ProjectX credentials reach the ProjectX paper broker in development (both environments), unless set.
  ...(production ? {} : projectXPaperEndpoints(process.env.PROJECTX_PAPER_BROKER_PORT || '3012')),
  // The children write into pipes: they pretty-print their logs when this terminal is one (see prettyLogs).
  ...(process.stdout.isTTY && !production ? { LOG_PRETTY: '1' } : {}),
  ...process.env,
}

interface Part {
  name: string
  entry: string
  /** Development-only parts never start in production. */
  developmentOnly?: boolean
}

const parts: Part[] = [
  { name: 'oidc', entry: 'dev/oidc-provider/src/main.ts', developmentOnly: true },
  { name: 'paper-broker', entry: 'dev/paper-broker/src/main.ts', developmentOnly: true },
  { name: 'projectx-paper', entry: 'dev/paper-broker-projectx/src/main.ts', developmentOnly: true },
  { name: 'broker-connector', entry: 'services/broker-connector/src/main.ts' },
  { name: 'settings', entry: 'services/settings/src/main.ts' },
  { name: 'admin', entry: 'services/admin/src/main.ts' },
  { name: 'auth', entry: 'services/auth/src/main.ts' },
  { name: 'ingest', entry: 'services/ingest/src/main.ts' },
  { name: 'gateway', entry: 'services/gateway/src/main.ts' },
]

const config = loadConfigOrExit(
  'start',
  Type.Object({
    DATABASE_URL: Env.DATABASE_URL,
    PUBLIC_URL: Env.PUBLIC_URL,
    GATEWAY_PORT: Env.GATEWAY_PORT,
    INGEST_PORT: Env.INGEST_PORT,
    AUTH_PORT: Env.AUTH_PORT,
    SETTINGS_PORT: Env.SETTINGS_PORT,
    ADMIN_PORT: Env.ADMIN_PORT,
    BROKER_CONNECTOR_PORT: Env.BROKER_CONNECTOR_PORT,
  }),
)
try {
  const { DATABASE_URL: _database, PUBLIC_URL: _public, ...ports } = config
  refuseSharedPorts(ports)
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  process.stderr.write(`start: ${error.message}\n`)
  process.exit(78)
}
await ensureDatabase(config.DATABASE_URL)
const migration = await migrateToLatest(config.DATABASE_URL)
if (migration.error) {
  process.stderr.write(`start: migration failed: ${String(migration.error)}\n`)
  process.exit(1)
}
process.stdout.write(`start: database migrated (${migration.results?.length ?? 0} new migrations)\n`)
// The gateway serves the pages as built (services/gateway/public); `pnpm dev` builds them once at start.
const web = await buildWeb()
process.stdout.write(`start: gateway pages built (${web.files.length} files)\n`)

const children = new Map<string, ChildProcess>()
let stopping = false

function prefixLines(name: string, stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) {
  let buffered = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    buffered += chunk
    const lines = buffered.split('\n')
    buffered = lines.pop() ?? ''
    for (const line of lines) out.write(`${name.padEnd(16)} | ${line}\n`)
  })
}

function stopAll(code: number) {
  if (stopping) return
  stopping = true
  for (const child of children.values()) child.kill('SIGTERM')
  const deadline = setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL')
    process.exit(code)
  }, 12_000)
  deadline.unref()
  const wait = setInterval(() => {
    if ([...children.values()].every((child) => child.exitCode !== null || child.signalCode !== null)) {
      clearInterval(wait)
      process.exit(code)
    }
  }, 100)
}

for (const part of parts) {
  if (part.developmentOnly && production) continue
  if (!existsSync(path.join(root, part.entry))) continue
  // Own process group: a terminal's Ctrl-C reaches only this supervisor, which stops each child once.
  const args = watch ? [fileURLToPath(import.meta.resolve('tsx/cli')), 'watch', '--clear-screen=false', part.entry] : ['--import', 'tsx', part.entry]
  const child = spawn(process.execPath, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  children.set(part.name, child)
  prefixLines(part.name, child.stdout, process.stdout)
  prefixLines(part.name, child.stderr, process.stderr)
  child.on('exit', (code, signal) => {
    if (stopping) return
    process.stderr.write(`start: ${part.name} exited (${signal ?? code}); stopping the platform\n`)
    stopAll(1)
  })
}

process.on('SIGINT', () => stopAll(0))
process.on('SIGTERM', () => stopAll(0))
process.stdout.write(
  `start: platform starting — open ${config.PUBLIC_URL} ; webhooks: POST ${config.PUBLIC_URL}/webhook/alert ` +
    `(or port ${config.INGEST_PORT} directly)${production ? '' : ' ; dev sign-in accepts any e-mail, ADMIN_EMAIL (admin@example.com) is the administrator'}\n`,
)
