import { fieldOf } from './fields.ts'

/** `Label: value` (or `Label = value`); the label starts with a letter and is at most 48 characters. */
const LABEL_LINE = /^([A-Za-z][\w .\-/()]{0,47}?)\s*[:=](.*)$/s

/**
 * Reads plain-text `Label: value` lines (any line ending, stray blanks). Every labelled line is kept
 * under its label as written, so `raw` loses nothing; returns null when no line names a known field.
 * The first line with a given label wins.
 */
export function parseLabelLines(text: string): Record<string, string> | null {
  const record: Record<string, string> = {}
  let known = false
  for (const rawLine of text.split(/\r\n|\n|\r/)) {
    const line = rawLine.trim()
    if (line === '') continue
    const match = LABEL_LINE.exec(line)
    if (!match) continue
    const label = (match[1] as string).trim()
    if (Object.hasOwn(record, label)) continue
    record[label] = (match[2] as string).trim()
    if (fieldOf(label) !== undefined) known = true
  }
  return known ? record : null
}
