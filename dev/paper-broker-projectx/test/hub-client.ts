import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr'

/** A POST to the paper broker's API, with the Bearer token when given; the status and the JSON answer. */
export async function api(base: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) }
}

export async function login(base: string, userName = 'demo', apiKey = 'demo-key'): Promise<string> {
  const answer = await api(base, '/api/Auth/loginKey', { userName, apiKey })
  if (answer.body.success !== true) throw new Error(`login refused: ${JSON.stringify(answer.body)}`)
  return answer.body.token as string
}

interface Received {
  target: string
  args: unknown[]
}

/**
 * A hub connection through the official client, recording every event of `targets`. `next(target, match)`
 * resolves with the first event not yet taken that matches, as soon as it has arrived (no polling).
 */
export async function connectHub(url: string, token: string, targets: readonly string[], options: { skipNegotiation?: boolean } = {}) {
  const connection: HubConnection = new HubConnectionBuilder()
    .withUrl(url, { accessTokenFactory: () => token, ...(options.skipNegotiation ? { skipNegotiation: true, transport: HttpTransportType.WebSockets } : {}) })
    .configureLogging(LogLevel.None)
    .build()
  const received: Received[] = []
  const waiters: { target: string; match: (data: never) => boolean; resolve: (args: unknown[]) => void }[] = []
  for (const target of targets) {
    connection.on(target, (...args: unknown[]) => {
      const waiter = waiters.findIndex((candidate) => candidate.target === target && candidate.match(args.at(-1) as never))
      if (waiter >= 0) waiters.splice(waiter, 1)[0]?.resolve(args)
      else received.push({ target, args })
    })
  }
  await connection.start()
  /** The next event of `target` whose last argument matches; rejects after 5 s (a failing test, not a wait). */
  const next = <T>(target: string, match: (data: T) => boolean = () => true): Promise<T> => {
    const index = received.findIndex((event) => event.target === target && match(event.args.at(-1) as T))
    if (index >= 0) return Promise.resolve(received.splice(index, 1)[0]?.args.at(-1) as T)
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${target} event matching`)), 5_000)
      waiters.push({ target, match: match as (data: never) => boolean, resolve: (args) => (clearTimeout(timer), resolve(args.at(-1) as T)) })
    })
  }
  return { connection, next, received }
}
