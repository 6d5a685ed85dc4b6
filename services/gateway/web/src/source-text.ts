// The Signal sources page's words (issue 22): a source's URL as far as it can be shown, and a subscription's
// size rule. Pure, so the page tests load it in Node.

export interface SourceSubscription {
  sizeRule: 'account' | 'multiplier'
  multiplier: number | null
}

/** A source's webhook path: its token follows, and is shown only in the answer that made it. */
const SOURCE_PATH = '/webhook/s/'

/** The URL as it can be shown later: its prefix, with the token hidden. */
export const hiddenSourceUrl = (origin: string): string => `${new URL(SOURCE_PATH, origin).href}…`

/** How the alerts of a subscription are sized, in the trader's words. */
export function sizeRuleText(subscription: SourceSubscription): string {
  if (subscription.sizeRule === 'multiplier') return `The alert's quantity × ${subscription.multiplier ?? '?'}`
  return 'By your risk settings (each entry sized by your account)'
}

/** Whether the trader subscribes: "Yes" or "No" (the size rule is in the subscriptions list). */
export const subscribedText = (subscriptions: readonly SourceSubscription[]): string => (subscriptions.length > 0 ? 'Yes' : 'No')
