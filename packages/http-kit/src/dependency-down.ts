import { startTracingFromEnvironment } from '@signals/telemetry'

/** The backing servers a service needs at start, named by their config URL. */
type DependencyName = 'Postgres' | 'Redis' | 'NATS'

export interface Dependency {
  name: DependencyName
  url: string | undefined
}

const DEFAULT_PORT: Record<DependencyName, number> = { Postgres: 5432, Redis: 6379, NATS: 4222 }

/** How to start each one (README "Prerequisites", docker-compose.yml). */
const HOW_TO_START: Record<DependencyName, string> = {
  Postgres: '`docker compose up -d postgres`, or start a local PostgreSQL 15+',
  Redis: '`docker compose up -d redis`, or `redis-server`',
  NATS: '`docker compose up -d nats`, or `nats-server -js`',
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNRESET'])

/** host:port of a URL, never its user or password (several may be listed, comma separated, for NATS). */
function addressOf(name: DependencyName, url: string): string {
  const first = url.split(',')[0]?.trim() ?? url
  try {
    const parsed = new URL(first.includes('://') ? first : `nats://${first}`)
    return `${parsed.hostname}:${parsed.port === '' ? DEFAULT_PORT[name] : parsed.port}`
  } catch {
    return `(unparsable ${name} URL)`
  }
}

interface NetworkError {
  name?: string
  code?: string
  port?: number
}

/** The error and everything it wraps (cause, an AggregateError's errors). */
function chainOf(error: unknown): NetworkError[] {
  const seen: NetworkError[] = []
  const queue: unknown[] = [error]
  while (queue.length > 0 && seen.length < 20) {
    const next = queue.shift()
    if (typeof next !== 'object' || next === null) continue
    const each = next as NetworkError & { cause?: unknown; errors?: unknown }
    seen.push(each)
    if (each.cause !== undefined) queue.push(each.cause)
    if (Array.isArray(each.errors)) queue.push(...(each.errors as unknown[]))
  }
  return seen
}

/**
 * When a service fails to start because Postgres, Redis or NATS is not reachable, one sentence saying
 * which, where (host:port, no credentials) and how to start it; null for any other failure (its stack
 * trace is the useful thing then).
 */
export function dependencyDownMessage(service: string, error: unknown, dependencies: readonly Dependency[]): string | null {
  const chain = chainOf(error)
  const network = chain.find((each) => typeof each.code === 'string' && UNREACHABLE.has(each.code))
  if (!network) return null
  const known = dependencies.filter((dependency): dependency is Dependency & { url: string } => dependency.url !== undefined)
  // The NATS client wraps the socket's error in its own ConnectionError, without the port.
  const down =
    (chain.some((each) => each.name === 'ConnectionError') ? known.find((dependency) => dependency.name === 'NATS') : undefined) ??
    known.find((dependency) => network.port !== undefined && addressOf(dependency.name, dependency.url).endsWith(`:${network.port}`))
  if (!down) return null
  const address = addressOf(down.name, down.url)
  return `${service} cannot start: ${down.name} is not reachable at ${address} (${network.code}). Start it with ${HOW_TO_START[down.name]}, or point the service at another one with its URL setting.`
}

/** The dependencies a service's config names (DATABASE_URL, REDIS_URL, NATS_URL), for dependencyDownMessage. */
export function dependenciesOf(config: { DATABASE_URL?: string; REDIS_URL?: string; NATS_URL?: string }): Dependency[] {
  return [
    { name: 'Postgres', url: config.DATABASE_URL },
    { name: 'Redis', url: config.REDIS_URL },
    { name: 'NATS', url: config.NATS_URL },
  ]
}

/**
 * For `main.ts`: turns tracing on when OTEL_EXPORTER_OTLP_ENDPOINT is set (a bad value: its sentence and
 * exit 78, like any bad variable), then builds the app; when that fails because a backing server is down,
 * prints the one sentence instead of a stack trace and exits 69 (EX_UNAVAILABLE).
 */
export async function buildOrExplain<T>(service: string, dependencies: readonly Dependency[], build: () => Promise<T>): Promise<T> {
  try {
    await startTracingFromEnvironment(service)
  } catch (error) {
    process.stderr.write(`${service}: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(78)
  }
  try {
    return await build()
  } catch (error) {
    const message = dependencyDownMessage(service, error, dependencies)
    if (message === null) throw error
    process.stderr.write(`${message}\n`)
    process.exit(69)
  }
}
