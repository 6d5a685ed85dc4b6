import type { IntakeLogEntry as IntakeLog } from '@signals/db'

export interface IngestTarget {
  ingestUrl: string
  /** WEBHOOK_SECRET: ingest redacted it from the stored text, so the replay carries it as a sender would. */
  webhookSecret?: string
}

export interface IngestAnswer {
  statusCode: number
  answer: unknown
}

/**
 * Sends a stored webhook to ingest again, the way its sender did: the text where it came (body, `?message=`
 * or the `x-alert-message` header), with its content type. The secret goes in the query (`?secret=`), a
 * place ingest reads it from; the text itself is unchanged, so ingest classifies it exactly as before and
 * a test alert stays a test alert. `traceHeaders` (the admin request's `traceparent` while tracing is on)
 * make the replayed alert's trace a child of the admin's request.
 */
export async function sendToIngest(target: IngestTarget, entry: IntakeLog, traceHeaders: Record<string, string> = {}): Promise<IngestAnswer> {
  const url = new URL('/webhook/alert', target.ingestUrl)
  if (target.webhookSecret) url.searchParams.set('secret', target.webhookSecret)
  const headers: Record<string, string> = { ...traceHeaders, 'user-agent': 'signals-admin-replay' }
  let body: string | undefined
  if (entry.source === 'query') url.searchParams.set('message', entry.raw_body)
  else if (entry.source === 'header') headers['x-alert-message'] = entry.raw_body
  else {
    body = entry.raw_body
    headers['content-type'] = entry.content_type ?? 'text/plain'
  }
  const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) })
  const text = await response.text()
  let answer: unknown = text
  try {
    answer = JSON.parse(text)
  } catch {
    // Not JSON: kept as text.
  }
  return { statusCode: response.status, answer }
}
