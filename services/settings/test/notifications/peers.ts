import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  user: string | null
  raw: string
}

/** A real SMTP server on a free local port (no TLS offered), taking only `username`/`password` when given. */
export async function startSmtpPeer(t: Test, login: { username: string; password: string } | null) {
  const mails: ReceivedMail[] = []
  const server = new SMTPServer({
    disabledCommands: login ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: login === null,
    logger: false,
    onAuth(auth, _session, callback) {
      if (login && auth.username === login.username && auth.password === login.password) return callback(null, { user: auth.username })
      return callback(new Error('Invalid username or password'))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const envelopeFrom = session.envelope.mailFrom
        mails.push({
          from: envelopeFrom ? envelopeFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === 'string' ? session.user : null,
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const port = (server.server.address() as AddressInfo).port
  return { port, mails }
}

export interface ReceivedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
}

/**
 * A local HTTP server answering like the peer under test (Telegram's Bot API, a Discord webhook, a
 * trader's webhook receiver): `answer` decides each response from the request.
 */
export async function startHttpPeer(t: Test, answer: (request: ReceivedRequest) => { status: number; body?: unknown }) {
  const requests: ReceivedRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      requests.push(request)
      const { status, body } = answer(request)
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' })
      res.end(body === undefined ? undefined : JSON.stringify(body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, requests }
}

/** Telegram's sendMessage answer: ok for `token`, 401 otherwise. */
export const telegramAnswer = (token: string) => (request: ReceivedRequest) =>
  request.path === `/bot${token}/sendMessage` && request.method === 'POST'
    ? { status: 200, body: { ok: true, result: { message_id: 1 } } }
    : { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } }
