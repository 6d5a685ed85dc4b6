import type { FastifyServerOptions } from 'fastify'

/** Paths pino blanks out wherever they appear in a logged object. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["set-cookie"]',
  'req.headers["x-signals-identity"]',
  'req.headers["x-webhook-secret"]',
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
  'password',
  'secret',
  'sec',
  'passphrase',
  'token',
  'config.SESSION_SECRET',
  'config.CREDENTIALS_KEY',
  'config.OIDC_CLIENT_SECRET',
  'config.INTERNAL_AUTH_SECRET',
  'config.WEBHOOK_SECRET',
]

/** A webhook secret may travel in the path: /webhook/alert/<secret>. Judged on the decoded path, as routed. */
const WEBHOOK_SECRET_PATH = /^\/webhook\/alert\/./

/**
 * The URL as a log line may show it: every query value is `[redacted]` (names stay), since a secret may
 * hide in any of them (`?message={"passphrase":…}`, a TradingView alert's whole text), and the secret
 * segment of `/webhook/alert/<secret>` however it is percent-encoded.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?')
  const path = queryStart === -1 ? url : url.slice(0, queryStart)
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    decoded = path
  }
  const shownPath = WEBHOOK_SECRET_PATH.test(decoded) ? '/webhook/alert/[redacted]' : path
  if (queryStart === -1) return shownPath
  const names = [...new URLSearchParams(url.slice(queryStart + 1)).keys()].slice(0, 20)
  return `${shownPath}?${names.map((name) => `${encodeURIComponent(name)}=[redacted]`).join('&')}`
}

export interface LoggerSettings {
  service: string
  level: string
}

/** pino options shared by every service: service name, secret redaction, URLs without secrets. */
export function loggerOptions(settings: LoggerSettings): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: settings.level,
    base: { service: settings.service },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req(request: { method: string; url: string; ip?: string; id?: string }) {
        return { id: request.id, method: request.method, url: redactUrl(request.url), remoteAddress: request.ip }
      },
      // @fastify/reply-from logs the proxied URL as `source` ("fetching from remote server").
      source: (value: unknown) => (typeof value === 'string' && value.startsWith('/') ? redactUrl(value) : value),
    },
  }
}
