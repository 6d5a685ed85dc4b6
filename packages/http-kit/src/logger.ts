import type { FastifyServerOptions } from 'fastify'

/** Paths pino blanks out wherever they appear in a logged object; a service adds its own (LogRedaction). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["set-cookie"]',
  'req.headers["x-signals-identity"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.secret',
  '*.sec',
  '*.passphrase',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.clientSecret',
  '*.apiKey',
  '*.credentials',
  // Connection settings that may carry credentials (an ACL user in REDIS_URL, a NATS user or token).
  'config.DATABASE_URL',
  'config.REDIS_URL',
  'config.NATS_URL',
  'config.NATS_PASSWORD',
  'config.NATS_TOKEN',
  '*.pass',
  'password',
  'secret',
  'sec',
  'passphrase',
  'token',
]

/** What a service adds to the shared redaction: its own secret settings and headers, and secret path segments. */
export interface LogRedaction {
  /** More pino paths, e.g. `config.WEBHOOK_SECRET`, `req.headers["x-webhook-secret"]`. */
  paths?: readonly string[]
  /** Path prefixes whose next segment is a secret (ingest's `/webhook/alert/`): logged as `[redacted]`. */
  secretPathPrefixes?: readonly string[]
}

/**
 * The URL as a log line may show it: every query value is `[redacted]` (names stay), since a secret may
 * hide in any of them (`?message={"passphrase":…}`, a TradingView alert's whole text), and the segment
 * after a `secretPathPrefixes` entry however it is percent-encoded (judged on the decoded path, as routed).
 */
export function redactUrl(url: string, secretPathPrefixes: readonly string[] = []): string {
  const queryStart = url.indexOf('?')
  const path = queryStart === -1 ? url : url.slice(0, queryStart)
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    decoded = path
  }
  const secretPrefix = secretPathPrefixes.find((prefix) => decoded.startsWith(prefix) && decoded.length > prefix.length)
  const shownPath = secretPrefix === undefined ? path : `${secretPrefix}[redacted]`
  if (queryStart === -1) return shownPath
  const names = [...new URLSearchParams(url.slice(queryStart + 1)).keys()].slice(0, 20)
  return `${shownPath}?${names.map((name) => `${encodeURIComponent(name)}=[redacted]`).join('&')}`
}

export interface LoggerSettings {
  service: string
  level: string
  redaction?: LogRedaction
  /** Lines through pino-pretty (see prettyLogs); never with a stream of the caller's. */
  pretty?: boolean
}

/**
 * Readable lines for a developer at a terminal: outside production, when stdout is a terminal or the
 * supervisor (`pnpm start`/`pnpm dev`, whose children write into a pipe) says its own is (LOG_PRETTY=1).
 * pino-pretty is a development dependency, loaded only as a transport then, so production never needs it.
 */
export function prettyLogs(env: NodeJS.ProcessEnv = process.env, stdoutIsTTY = process.stdout.isTTY === true): boolean {
  if (env.NODE_ENV === 'production') return false
  return stdoutIsTTY || env.LOG_PRETTY === '1'
}

const PRETTY_TRANSPORT = { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service', messageKey: 'msg' } }

/** pino options shared by every service: service name, secret redaction, URLs without secrets. */
export function loggerOptions(settings: LoggerSettings): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  const secretPathPrefixes = settings.redaction?.secretPathPrefixes ?? []
  return {
    level: settings.level,
    base: { service: settings.service },
    ...(settings.pretty === true ? { transport: PRETTY_TRANSPORT } : {}),
    redact: { paths: [...REDACT_PATHS, ...(settings.redaction?.paths ?? [])], censor: '[redacted]' },
    serializers: {
      req(request: { method: string; url: string; ip?: string; id?: string }) {
        return { id: request.id, method: request.method, url: redactUrl(request.url, secretPathPrefixes), remoteAddress: request.ip }
      },
      // @fastify/reply-from logs the proxied URL as `source` ("fetching from remote server").
      source: (value: unknown) => (typeof value === 'string' && value.startsWith('/') ? redactUrl(value, secretPathPrefixes) : value),
    },
  }
}
