import Type, { type Static } from 'typebox'
import { SignalSourceId } from '@signals/contracts'
import type { SignalSourceRow } from '@signals/db'

const prefix = { 'x-error-prefix': 'Invalid signal source' }

export const OperatorSourceParams = Type.Object({ id: SignalSourceId }, { ...prefix, additionalProperties: false })

export const OperatorSourceBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'a name traders recognise' }) },
  { ...prefix, additionalProperties: false },
)

const OperatorSourceView = Type.Object({
  id: SignalSourceId,
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  rotatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  subscribers: Type.Integer({ minimum: 0, description: 'traders subscribed to it' }),
})
type OperatorSourceView = Static<typeof OperatorSourceView>

export const OperatorSourcesResponse = Type.Object({ success: Type.Literal(true), sources: Type.Array(OperatorSourceView) })
export const OperatorSourceResponse = Type.Object({ success: Type.Literal(true), source: OperatorSourceView })
/** The URL carries the token: shown here once, never again (only its hash is kept). */
export const OperatorSourceWithUrlResponse = Type.Object({
  success: Type.Literal(true),
  source: OperatorSourceView,
  url: Type.String({ description: 'the webhook URL; shown once' }),
  token: Type.String({ description: "the URL's token; shown once" }),
})

export function operatorSourceView(source: SignalSourceRow, subscribers: number): OperatorSourceView {
  return { id: source.id, name: source.name, createdAt: source.created_at.toISOString(), rotatedAt: source.rotated_at?.toISOString() ?? null, subscribers }
}
