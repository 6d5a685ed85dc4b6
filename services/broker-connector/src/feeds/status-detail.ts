/** How the parts of a feed status's detail are joined (the account, then each note: create-trading.ts, position-reconciler.ts). */
const SEPARATOR = '; '

/**
 * The detail as the feed status holds it (FeedStatusV1: at most `max` characters). A longer one keeps its
 * first parts whole and says how many were left out ("… and 3 more"), so the trader knows there is more
 * rather than reading a sentence cut mid-word. A first part too long by itself is cut, and says so too.
 */
export function boundedDetail(detail: string, max = 500): string {
  if (detail.length <= max) return detail
  const parts = detail.split(SEPARATOR)
  for (let kept = parts.length - 1; kept >= 1; kept--) {
    const text = `${parts.slice(0, kept).join(SEPARATOR)}${SEPARATOR}… and ${parts.length - kept} more`
    if (text.length <= max) return text
  }
  const rest = parts.length - 1
  const tail = rest === 0 ? ' …' : ` … and ${rest} more`
  return `${parts[0]!.slice(0, max - tail.length)}${tail}`
}
