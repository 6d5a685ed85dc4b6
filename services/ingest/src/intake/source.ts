import type { IntakeLogEntry } from '@signals/contracts'
import { charsetOf, decodeBody } from '../http/raw-body.ts'

export type AlertSource = IntakeLogEntry['source']

export interface SourceText {
  source: AlertSource
  text: string
}

interface SourceInput {
  query: Record<string, unknown>
  body: unknown
  headerMessage: string | string[] | undefined
  contentType: string | null
}

const firstString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined

/**
 * Where the alert is read from, in the spec's priority: the `message` query parameter, then the body,
 * then the `x-alert-message` header when the body is empty (blank counts as empty).
 */
export function selectSource(input: SourceInput): SourceText {
  const queryMessage = firstString(input.query.message)
  if (queryMessage !== undefined && queryMessage.trim() !== '') return { source: 'query', text: queryMessage.replace(/^\uFEFF/, '') }
  const body = Buffer.isBuffer(input.body) ? decodeBody(input.body, charsetOf(input.contentType)) : ''
  if (body.trim() !== '') return { source: 'body', text: body }
  const header = firstString(input.headerMessage)
  if (header !== undefined && header.trim() !== '') return { source: 'header', text: header.replace(/^\uFEFF/, '') }
  return { source: 'none', text: body }
}
