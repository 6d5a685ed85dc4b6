import type { FastifyServerOptions } from 'fastify'

/** Query parameters whose values never reach a log line. */
const SECRET_QUERY_PARAMS = /^(secret|passphrase|token|code|state|password|access_token|id_token|key)$/i

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

/** Replaces the value of any secret-looking query parameter with `[redacted]`. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?')
  let path = queryStart === -1 ? url : url.slice(0, queryStart)
  // A webhook secret may travel in the path: /webhook/alert/<secret>.
  path = path.replace(/^(\/webhook\/alert\/)[^/?]+/, '$1[redacted]')
  if (queryStart === -1) return path
  const params = new URLSearchParams(url.slice(queryStart + 1))
  for (const key of [...params.keys()]) {
    if (SECRET_QUERY_PARAMS.test(key)) params.set(key, '[redacted]')
  }
  return `${path}?${params.toString()}`
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
    },
  }
}
