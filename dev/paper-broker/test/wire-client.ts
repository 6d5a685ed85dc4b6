import WebSocket from 'ws'
import { formatRequest, parseServerFrame } from '@signals/tradovate-wire'

/** The messages of an `a` frame (responses and events). */
export const messages = (frame: string) => {
  const parsed = parseServerFrame(frame)
  return parsed.kind === 'array' ? [...parsed.responses, ...parsed.events] : []
}

/** Opens a socket and collects its frames; `next` takes the first frame matching (waiting up to 5 s). */
export async function open(url: string) {
  const socket = new WebSocket(url)
  const frames: string[] = []
  socket.on('message', (data) => frames.push(String(data)))
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  const next = async (predicate: (frame: string) => boolean) => {
    const deadline = Date.now() + 5_000
    for (;;) {
      const index = frames.findIndex(predicate)
      if (index >= 0) return frames.splice(index, 1)[0] as string
      if (Date.now() > deadline) throw new Error('no such frame')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
  return { socket, next, frames }
}

export const tokenRequest = (restUrl: string, body: unknown) =>
  fetch(`${restUrl}/auth/accesstokenrequest`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

export const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

/** A logged-in, authorized and synchronised socket; `send` numbers a request and returns its id. */
export async function syncedSocket(restUrl: string, wsUrl: string, login: { name: string; password: string; userId: number }) {
  const token = (await (await tokenRequest(restUrl, { name: login.name, password: login.password })).json()) as { accessToken: string }
  const client = await open(wsUrl)
  await client.next((f) => f === 'o')
  let id = 0
  const send = (endpoint: string, body: unknown, query = '') => {
    const i = ++id
    client.socket.send(formatRequest(endpoint, i, body === null ? '' : typeof body === 'string' ? body : JSON.stringify(body), query))
    return i
  }
  /** The answer to request `i`, when it comes. */
  const answer = async (i: number) => {
    const frame = await client.next((f) => f.startsWith('a') && messages(f).some((m) => 'i' in m && m.i === i))
    return messages(frame).find((m) => 'i' in m && m.i === i) as { s: number; d: unknown }
  }
  await answer(send('authorize', token.accessToken))
  await answer(send('user/syncrequest', { users: [login.userId] }))
  return { ...client, send, answer }
}
