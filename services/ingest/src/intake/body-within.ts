/**
 * The longest start of `text` that fits `maxBytes` of UTF-8, cut between characters (never inside a
 * surrogate pair), and whether anything was cut.
 */
export function bodyWithin(text: string, maxBytes: number): { text: string; truncated: boolean } {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: most bodies are decided without counting.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return { text, truncated: false }
  let bytes = 0
  let end = 0
  for (const character of text) {
    const size = Buffer.byteLength(character)
    if (bytes + size > maxBytes) break
    bytes += size
    end += character.length
  }
  return { text: text.slice(0, end), truncated: true }
}
