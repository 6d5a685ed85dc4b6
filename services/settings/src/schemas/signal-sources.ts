import Type, { type Static } from 'typebox'
import { SignalSourceId } from '@signals/contracts'

const prefix = { 'x-error-prefix': 'Invalid signal source' }

export const SourceParams = Type.Object({ id: SignalSourceId }, { ...prefix, additionalProperties: false })
export type SourceParams = Static<typeof SourceParams>

export const SourceBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'a name you recognise (the strategy, the chart)' }) },
  { ...prefix, additionalProperties: false },
)
export type SourceBody = Static<typeof SourceBody>

const SizeRule = Type.Union([
  Type.Object({ sizeRule: Type.Literal('account', { description: "the account's own risk-engine sizing" }) }, { additionalProperties: false }),
  Type.Object(
    {
      sizeRule: Type.Literal('multiplier', { description: "the alert's quantity times multiplier" }),
      multiplier: Type.Number({ exclusiveMinimum: 0, maximum: 100 }),
    },
    { additionalProperties: false },
  ),
])

/**
 * The trader's subscriptions to one source: today one item (their one account) or none (unsubscribed; on the
 * default source, opted out of the spec's route).
 * Each item gains an `accountId` when a trader has several accounts (docs/decisions/signal-sources.md).
 */
export const SubscriptionsBody = Type.Object({ subscriptions: Type.Array(SizeRule, { maxItems: 1 }) }, { 'x-error-prefix': 'Invalid subscriptions', additionalProperties: false })
export type SubscriptionsBody = Static<typeof SubscriptionsBody>

const Subscription = Type.Object({ sizeRule: Type.Union([Type.Literal('account'), Type.Literal('multiplier')]), multiplier: Type.Union([Type.Number(), Type.Null()]) })

export const SourceView = Type.Object({
  id: SignalSourceId,
  name: Type.String(),
  kind: Type.Union([Type.Literal('trader'), Type.Literal('operator')], { description: 'yours, or made by an administrator for every trader' }),
  isDefault: Type.Boolean({
    description:
      "the default operator source: the spec's POST /webhook/alert, id 00000000-0000-0000-0000-000000000000. Every trader is subscribed unless they unsubscribe; it cannot be rotated or deleted",
  }),
  createdAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null for the default source' }),
  rotatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  subscriptions: Type.Array(Subscription),
})
export type SourceView = Static<typeof SourceView>

export const SourcesResponse = Type.Object({ success: Type.Literal(true), sources: Type.Array(SourceView) })

/** The URL carries the token: shown here once, never again (only its hash is kept). */
export const SourceWithUrlResponse = Type.Object({
  success: Type.Literal(true),
  source: SourceView,
  url: Type.String({ description: 'the webhook URL to paste into TradingView; shown once' }),
  token: Type.String({ description: "the URL's token; shown once" }),
})

export const SourceResponse = Type.Object({ success: Type.Literal(true), source: SourceView })
