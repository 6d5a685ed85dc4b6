/** Where and why a text that looks like JSON failed to parse, for a sender who must fix their template. */
export interface JsonSyntaxError {
  /** What was expected or found, in plain words ("expected ',' or '}' after a property value"). */
  what: string
  /** 1-based line and column in the text as sent. */
  line: number
  column: number
}

export function describeJsonSyntaxError(error: JsonSyntaxError): string {
  return `Malformed JSON at line ${error.line}, column ${error.column}: ${error.what}`
}

/**
 * The first syntax error in `text` read as JSON (undefined if it has none), located in the text as sent.
 * Our own scan rather than `JSON.parse`'s message, which gives no position for an unexpected token and
 * quotes the text back. `trailingCommas` forgives a comma before a closing bracket, as intake does for
 * objects. Iterative: a hostile body may nest deeply. Only run on text that already failed to parse.
 */
export function jsonSyntaxErrorOf(text: string, trailingCommas: boolean): JsonSyntaxError | undefined {
  try {
    new JsonScan(text, trailingCommas).document()
    return undefined
  } catch (error) {
    if (!(error instanceof SyntaxAt)) throw error
    return { what: error.what, ...lineAndColumn(text, error.position) }
  }
}

class SyntaxAt extends Error {
  constructor(
    readonly what: string,
    readonly position: number,
  ) {
    super(what)
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])/y
const LITERAL = /(?:true|false|null)(?!\w)/y
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y

class JsonScan {
  at = 0
  /** Closers still owed, innermost last. */
  readonly open: ('}' | ']')[] = []

  constructor(
    readonly text: string,
    readonly trailingCommas: boolean,
  ) {}

  document(): void {
    this.skip()
    for (;;) {
      if (this.value()) continue
      if (this.afterValue()) return
    }
  }

  /** Reads a value; true when it opened an object or list whose first member (if any) is next. */
  value(): boolean {
    const char = this.text[this.at]
    if (char === '{' || char === '[') {
      this.at++
      this.skip()
      this.open.push(char === '{' ? '}' : ']')
      if (this.text[this.at] === this.open.at(-1)) {
        this.at++
        this.open.pop()
        return false
      }
      if (char === '{') this.key()
      return true
    }
    if (char === '"') return void this.string(), false
    for (const pattern of [NUMBER, LITERAL]) {
      pattern.lastIndex = this.at
      if (pattern.test(this.text)) return void (this.at = pattern.lastIndex), false
    }
    return this.fail('expected a value (a string in double quotes, a number, true, false, null, an object or a list)')
  }

  /** After a value: closes what is finished; true at the end of the document, false before the next value. */
  afterValue(): boolean {
    for (;;) {
      this.skip()
      const closer = this.open.at(-1)
      if (closer === undefined) {
        if (this.at < this.text.length) this.fail('unexpected text after the JSON')
        return true
      }
      if (this.text[this.at] === closer) {
        this.at++
        this.open.pop()
        continue
      }
      if (this.text[this.at] !== ',') this.fail(`expected ',' or '${closer}' after ${closer === '}' ? 'a property value' : 'a list element'}`)
      this.at++
      this.skip()
      if (this.trailingCommas && this.text[this.at] === closer) continue
      if (closer === '}') this.key()
      return false
    }
  }

  key(): void {
    if (this.text[this.at] !== '"') this.fail('expected a property name in double quotes')
    this.string()
    this.skip()
    if (this.text[this.at] !== ':') this.fail("expected ':' after the property name")
    this.at++
    this.skip()
  }

  string(): void {
    const start = this.at
    this.at++
    while (this.at < this.text.length) {
      const code = this.text.charCodeAt(this.at)
      if (code === 0x22) return void this.at++
      if (code === 0x5c) {
        ESCAPE.lastIndex = this.at
        if (!ESCAPE.test(this.text)) this.fail('a backslash in a string starts no JSON escape')
        this.at = ESCAPE.lastIndex
        continue
      }
      if (code < 0x20) this.fail('a line break or control character inside a string (write it as \\n)')
      this.at++
    }
    this.at = start
    this.fail('a string is not closed')
  }

  skip(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at] as string)) this.at++
  }

  fail(what: string): never {
    throw new SyntaxAt(this.at >= this.text.length ? `the text ends before the JSON does: ${what}` : what, this.at)
  }
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  for (let index = 0; index < position; index++) {
    const code = text.charCodeAt(index)
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(index + 1) !== 0x0a)) {
      line++
      lineStart = index + 1
    }
  }
  return { line, column: position - lineStart + 1 }
}
