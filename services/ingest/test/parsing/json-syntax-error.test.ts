import t from 'tap'
import fc from 'fast-check'
import { jsonSyntaxErrorOf } from '../../src/parsing/json-syntax-error.ts'

const parses = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

t.test('the scan agrees with JSON.parse: no error exactly when the text parses', async (t) => {
  // Valid documents (compact or indented), then the same with one character removed, replaced or inserted.
  const documents = fc.tuple(fc.json({ depthSize: 'small' }), fc.boolean()).map(([text, indented]) => JSON.stringify(JSON.parse(text), null, indented ? 2 : undefined))
  const edits = fc.constantFrom('', ',', '"', '}', ']', '{', ':', 'x', '\n', '\\', ' ')
  const mutated = fc.tuple(documents, fc.nat(), edits, fc.boolean()).map(([text, at, edit, replace]) => {
    const index = at % (text.length + 1)
    return text.slice(0, index) + edit + text.slice(replace ? index + 1 : index)
  })
  let broken = 0
  fc.assert(fc.property(documents, (text) => jsonSyntaxErrorOf(text, false) === undefined), { numRuns: 300 })
  fc.assert(
    fc.property(mutated, (text) => {
      if (!parses(text)) broken++
      return (jsonSyntaxErrorOf(text, false) === undefined) === parses(text)
    }),
    { numRuns: 2000 },
  )
  t.ok(broken > 500, `most mutations break the JSON, so both sides were tried (${broken} of 2000)`)
})

t.test('errors are placed by line and column in the text as sent', async (t) => {
  t.match(jsonSyntaxErrorOf('{"a":1 "b":2}', false), { line: 1, column: 8, what: "expected ',' or '}' after a property value" })
  t.match(jsonSyntaxErrorOf('{\r\n "a": 1,\r\n "b": x\r\n}', false), { line: 3, column: 7, what: /^expected a value/ })
  t.match(jsonSyntaxErrorOf('[1, 2', false), { line: 1, column: 6, what: /^the text ends before the JSON does/ })
  t.match(jsonSyntaxErrorOf('{"a":"\\q"}', false), { column: 7, what: /backslash/ })
  t.match(jsonSyntaxErrorOf('{"a":"open', false), { column: 6, what: 'a string is not closed' })
  t.match(jsonSyntaxErrorOf('{"a":01}', false), { column: 6, what: /number/ })
  t.equal(jsonSyntaxErrorOf('{"a":[1,],}', true), undefined, 'trailing commas forgiven when asked (intake does for objects)')
  t.match(jsonSyntaxErrorOf('{"a":[1,],}', false), { column: 9, what: /^expected a value/ })
  t.equal(jsonSyntaxErrorOf(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, false), undefined, 'deep nesting does not overflow the stack')
})
