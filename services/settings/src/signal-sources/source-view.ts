import type { SignalSourceRow } from '@signals/db'
import type { VisibleSource } from '../repositories/signal-sources.ts'
import type { SourceView } from '../schemas/signal-sources.ts'

/** A source as the API shows it; never its token or hash. */
export function sourceViewOf(source: SignalSourceRow, subscription: VisibleSource['subscription']): SourceView {
  return {
    id: source.id,
    name: source.name,
    kind: source.owner_user_id === null ? 'operator' : 'trader',
    isDefault: false,
    createdAt: source.created_at.toISOString(),
    rotatedAt: source.rotated_at?.toISOString() ?? null,
    subscriptions: subscription === null ? [] : [{ sizeRule: subscription.sizeRule, multiplier: subscription.multiplier === null ? null : Number(subscription.multiplier) }],
  }
}

/** The webhook URL of a token, under the gateway's public address. */
export const sourceUrlOf = (publicUrl: string, token: string) => `${publicUrl.replace(/\/+$/, '')}/webhook/s/${token}`
