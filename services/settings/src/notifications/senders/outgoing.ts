/** One message to one channel, as every sender takes it. */
export interface OutgoingMessage {
  eventId: string
  kind: string
  title: string
  text: string
  occurredAt: string
}

/** What a send came to. `error` is shown to the trader and logged: it never holds a secret. */
export type SendOutcome = { ok: true } | { ok: false; error: string }

export interface SenderEnvironment {
  /** Base URL of the Telegram Bot API (https://api.telegram.org; a local peer in tests). */
  telegramApiUrl: string
  /** Longest one send may take. */
  timeoutMs: number
}

export const failed = (error: string): SendOutcome => ({ ok: false, error: error.slice(0, 500) })

/** A POST of JSON within the timeout; the outcome names the peer, never the URL (it may carry a token). */
export async function postJson(
  peer: string,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  accepted: (status: number, text: string) => string | null,
): Promise<SendOutcome> {
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    })
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
    return failed(timedOut ? `${peer} did not answer within ${timeoutMs} ms` : `${peer} could not be reached (${causeOf(error)})`)
  }
  const text = await response.text().catch(() => '')
  const problem = accepted(response.status, text)
  return problem === null ? { ok: true } : failed(`${peer} answered ${response.status}: ${problem}`)
}

/** The network cause without the URL: `ECONNREFUSED`, `ENOTFOUND`... */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause
  return typeof cause?.code === 'string' ? cause.code : 'network error'
}
