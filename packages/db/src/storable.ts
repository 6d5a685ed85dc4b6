/**
 * Postgres text and jsonb cannot hold U+0000 ("invalid byte sequence for encoding UTF8: 0x00", "unsupported
 * Unicode escape sequence"), nor can UTF-8 hold half a surrogate pair. One such value refuses the whole
 * statement, so a batch insert lost every row beside it (issue 22). Stored text is made storable instead:
 * a NUL becomes the six characters `\u0000` (what JSON would show), a lone surrogate U+FFFD.
 */
/** Half a surrogate pair: a high one not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

export function storableText(text: string): string {
  const wellFormed = text.replace(LONE_SURROGATE, '\ufffd')
  return wellFormed.includes('\u0000') ? wellFormed.replaceAll('\u0000', '\\u0000') : wellFormed
}

export function storableTextOrNull(text: string | null): string | null {
  return text === null ? null : storableText(text)
}

/** A JSON value whose strings (keys too) are storable text (depth is bounded by the caller's parsing). */
export function storableJson(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value)
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(storableJson)
  // fromEntries defines own properties: a `__proto__` key stays data and never touches the prototype.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), storableJson(item)]))
}
