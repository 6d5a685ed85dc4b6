import type { SourceView } from '../schemas/signal-sources.ts'

/**
 * The default operator source is the spec's `POST /webhook/alert` (DESIGN decision 22): it has no row, so it
 * is addressed by the nil uuid, which `gen_random_uuid()` never makes. Every trader is subscribed to it
 * (with their account's own sizing) unless they opted out (docs/decisions/signal-sources.md).
 */
export const DEFAULT_SOURCE_ID = '00000000-0000-0000-0000-000000000000'

export function defaultSourceView(subscribed: boolean): SourceView {
  return {
    id: DEFAULT_SOURCE_ID,
    name: 'Default (POST /webhook/alert)',
    kind: 'operator',
    isDefault: true,
    createdAt: null,
    rotatedAt: null,
    subscriptions: subscribed ? [{ sizeRule: 'account', multiplier: null }] : [],
  }
}
