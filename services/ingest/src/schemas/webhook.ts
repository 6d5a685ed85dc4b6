import Type from 'typebox'
import { AlertKind } from '@signals/contracts'

export const WebhookAccepted = Type.Object(
  { success: Type.Literal(true), alertId: Type.String(), kind: AlertKind, duplicate: Type.Boolean() },
  { additionalProperties: false },
)

/** The querystring as parsed (a repeated name gives a list); not validated: any name may be an alert field. */
export type WebhookQuery = Record<string, string | string[] | undefined>
export interface WebhookParams {
  secret?: string
  /** A signal source's URL token (`/webhook/s/<token>`). */
  token?: string
}
