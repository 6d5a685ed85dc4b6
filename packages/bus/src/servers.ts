/**
 * NATS credentials: a user and password, or a token. Given in NATS_URL (`nats://user:pass@host:4222`,
 * `nats://token@host:4222`, as NATS's own tools write them) or in NATS_USER / NATS_PASSWORD / NATS_TOKEN.
 */
export type NatsCredentials = { user: string; pass: string } | { token: string }

/** NATS_USER, NATS_PASSWORD and NATS_TOKEN as a service reads them (each may be unset). */
export interface NatsCredentialSettings {
  user?: string
  password?: string
  token?: string
}

export interface NatsServers {
  /** The servers without their credentials (the client would send none from the URL: it reads host and port only). */
  servers: string[]
  credentials?: NatsCredentials
}

/** Thrown for a NATS_URL whose servers disagree on credentials, or credentials given twice. */
export class NatsCredentialsError extends Error {
  override name = 'NatsCredentialsError'
}

const decode = (part: string) => decodeURIComponent(part)

/** The credentials written in one server URL, if any. */
function credentialsIn(server: URL): NatsCredentials | undefined {
  if (server.username === '' && server.password === '') return undefined
  // NATS reads a user part without a password as a token.
  if (server.password === '') return { token: decode(server.username) }
  return { user: decode(server.username), pass: decode(server.password) }
}

const sameCredentials = (a: NatsCredentials | undefined, b: NatsCredentials | undefined) => JSON.stringify(a) === JSON.stringify(b)

function fromSettings(settings: NatsCredentialSettings): NatsCredentials | undefined {
  if (settings.token) {
    if (settings.user || settings.password) throw new NatsCredentialsError('give NATS_TOKEN or NATS_USER and NATS_PASSWORD, not both')
    return { token: settings.token }
  }
  if (settings.user === undefined && settings.password === undefined) return undefined
  if (!settings.user || !settings.password) throw new NatsCredentialsError('NATS_USER and NATS_PASSWORD go together')
  return { user: settings.user, pass: settings.password }
}

/**
 * Splits NATS_URL (one server or a comma-separated list) into servers without credentials and the one set
 * of credentials the connection logs in with. Every server that carries credentials must carry the same;
 * credentials in the URL and in the variables at once are refused (which one was meant?). Messages never
 * contain a secret.
 */
export function natsServers(url: string, settings: NatsCredentialSettings = {}): NatsServers {
  const entries = url
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server.length > 0)
  let inUrl: NatsCredentials | undefined
  const servers = entries.map((entry, index) => {
    const server = new URL(entry)
    const credentials = credentialsIn(server)
    if (credentials && inUrl && !sameCredentials(credentials, inUrl)) {
      throw new NatsCredentialsError(`the servers in NATS_URL carry different credentials (server ${index + 1})`)
    }
    inUrl ??= credentials
    server.username = ''
    server.password = ''
    return server.toString().replace(/\/$/, '')
  })
  const fromVariables = fromSettings(settings)
  if (inUrl && fromVariables) throw new NatsCredentialsError('NATS credentials are in NATS_URL and in NATS_USER/NATS_PASSWORD/NATS_TOKEN: give them once')
  const credentials = inUrl ?? fromVariables
  return credentials ? { servers, credentials } : { servers }
}
