import type { FastifyRequest } from 'fastify'
import type { IntakeLogEntry } from '@signals/contracts'
import { charsetOf, decodeBody } from '../http/raw-body.ts'

type AlertSource = IntakeLogEntry['source']

export interface SourceText {
  source: AlertSource
  text: string
}

interface SourceInput {
  /** The parsed querystring (a record of strings and lists of strings). */
  query: unknown
  body: unknown
  headerMessage: string | string[] | undefined
  contentType: string | null
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

const firstString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined

/**
 * Where the alert is read from, in the spec's priority: the `message` query parameter, then the body,
 * then the `x-alert-message` header when the body is empty (blank counts as empty).
 */
function selectSource(input: SourceInput): SourceText {
  const queryMessage = isRecord(input.query) ? firstString(input.query.message) : undefined
  if (queryMessage !== undefined && queryMessage.trim() !== '') return { source: 'query', text: queryMessage.replace(/^\uFEFF/, '') }
  const body = Buffer.isBuffer(input.body) ? decodeBody(input.body, charsetOf(input.contentType)) : ''
  if (body.trim() !== '') return { source: 'body', text: body }
  const header = firstString(input.headerMessage)
  if (header !== undefined && header.trim() !== '') return { source: 'header', text: header.replace(/^\uFEFF/, '') }
  return { source: 'none', text: body }
}

/** The request's alert text, chosen once and kept on `request.intake` (the route and the intake log share it). */
export function sourceTextOf(request: FastifyRequest): SourceText {
  request.intake.sourceText ??= selectSource({
    query: request.query,
    body: request.body,
    headerMessage: request.headers['x-alert-message'],
    contentType: request.originalContentType,
  })
  return request.intake.sourceText
}
