/** Deepest JSON nesting kept: deeper values would overflow the stack when serialised again. */
export const MAX_JSON_DEPTH = 32

/** JSON.parse that answers `undefined` instead of throwing. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** True when `text` holds too few brackets to nest deeper than MAX_JSON_DEPTH (a quick bound before jsonDepth). */
export function cannotNestTooDeep(text: string): boolean {
  let openings = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if ((code === 0x7b || code === 0x5b) && ++openings > MAX_JSON_DEPTH) return false
  }
  return true
}

/** Nesting depth of a parsed JSON value, measured without recursion (a hostile body may nest deeply). */
export function jsonDepth(value: unknown): number {
  let deepest = 0
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number]
    if (current === null || typeof current !== 'object') continue
    if (depth > deepest) deepest = depth
    if (deepest > MAX_JSON_DEPTH) return deepest
    for (const child of Object.values(current)) stack.push([child, depth + 1])
  }
  return deepest
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
