import { fieldOf } from './fields.ts'

/** `Label: value` (or `Label = value`); the label starts with a letter and is at most 48 characters. */
const LABEL_LINE = /^([A-Za-z][\w .\-/()]{0,47}?)\s*[:=](.*)$/s

/**
 * Reads plain-text `Label: value` lines (any line ending, stray blanks). Every labelled line is kept
 * under its label as written, so `raw` loses nothing; returns null when no line names a known field.
 * The first line with a given label wins; repeats are kept too (see RepeatedNames).
 */
export function parseLabelLines(text: string): Record<string, string> | null {
  const record: Record<string, string> = {}
  const names = new RepeatedNames()
  let known = false
  for (const rawLine of text.split(/\r\n|\n|\r/)) {
    const line = rawLine.trim()
    if (line === '') continue
    const match = LABEL_LINE.exec(line)
    if (!match) continue
    record[names.key((match[1] as string).trim())] = (match[2] as string).trim()
    if (!known && fieldOf((match[1] as string).trim()) !== undefined) known = true
  }
  return known ? record : null
}

/** Characters `canonicalName` drops: a suffix made of them leaves the name meaning the same field. */
const MARKS = '!#$%&*+-./'

/**
 * Keys for a record that may repeat a name: `name` the first time, then `name` with a short suffix of
 * marks (` #`, ` $`, … ` #!`): a repeated label or form field is kept (raw loses nothing) under a key that
 * still reads as the same field, so the first one wins and a contradicting repeat (`Action: buy` then
 * `Action: exit`) is seen. A count per name keeps this linear however often a name repeats.
 */
export class RepeatedNames {
  private readonly seen = new Map<string, number>()

  key(name: string): string {
    const count = this.seen.get(name)
    this.seen.set(name, (count ?? 0) + 1)
    if (count === undefined) return name
    let suffix = ''
    for (let rest = count; rest > 0; rest = Math.floor(rest / 10)) suffix = (MARKS[rest % 10] as string) + suffix
    return `${name} ${suffix}`
  }
}
