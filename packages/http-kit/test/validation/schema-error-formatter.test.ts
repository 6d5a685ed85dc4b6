import t from 'tap'
import Type from 'typebox'
import { createValidatorCompiler, describeSchemaErrors } from '../../src/index.ts'

type Validate = ((value: unknown) => boolean) & { errors: Parameters<typeof describeSchemaErrors>[0] | null }
const compile = (schema: unknown, httpPart = 'body') => createValidatorCompiler()({ schema, httpPart, method: 'POST', url: '/x' }) as Validate
const messageOf = (validate: Validate, dataVar = 'body') => (value: unknown) => (validate(value) ? 'ok' : describeSchemaErrors(validate.errors ?? [], dataVar))

t.test('messages name the field after the nearest prefix', async (t) => {
  const area = Type.Object(
    { size: Type.Integer({ minimum: 1, maximum: 5 }), kind: Type.Union([Type.Literal('a'), Type.Literal('b')]), note: Type.String({ minLength: 1 }) },
    { additionalProperties: false },
  )
  const schema = Type.Object({ thing: Type.Object({ area }, { additionalProperties: false }) }, { additionalProperties: false, 'x-error-prefix': 'Invalid thing' })
  const message = messageOf(compile(schema))
  const thing = (value: Record<string, unknown>) => ({ thing: { area: value } })
  t.equal(message(thing({ size: 9, kind: 'a', note: 'x' })), 'Invalid thing: thing.area.size must be <= 5')
  t.equal(message(thing({ size: 1, kind: 'c', note: 'x' })), 'Invalid thing: thing.area.kind must be one of "a", "b"')
  t.equal(message(thing({ size: 1, kind: 'a', note: 'x', extra: 1 })), 'Invalid thing: thing.area.extra is not a known field')
  t.equal(message(thing({ kind: 'a', note: 'x' })), 'Invalid thing: thing.area.size is required')
  t.equal(message(thing({ size: 1, kind: 'a', note: '' })), 'Invalid thing: thing.area.note must not be empty')
  t.equal(message(thing({ size: 1, kind: 'a', note: 'x' })), 'ok')
})

t.test('without a prefix the part is named; null reads as missing; a body of the wrong kind is said so', async (t) => {
  const schema = Type.Object({ n: Type.Integer({ default: 1 }), inner: Type.Object({ flag: Type.Boolean() }) })
  const message = messageOf(compile(schema))
  t.equal(message({ n: 'x', inner: { flag: true } }), 'Invalid body: n must be integer')
  t.equal(message({ n: 1, inner: null }), 'Invalid body: inner is required')
  t.equal(message([1, 2]), 'Invalid body: body must be object: send a JSON object')
  t.equal(message({ inner: { flag: true } }), 'Invalid body: n is required', 'a missing field is not filled from a default')
  t.equal(message({ n: 1, inner: { flag: 'true' } }), 'Invalid body: inner.flag must be boolean', 'a body is checked as sent: "true" is not a boolean')
})

t.test('querystrings are coerced from text; bodies are not', async (t) => {
  const schema = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100 }) })
  const query = compile(schema, 'querystring')
  const value = { limit: '20' }
  t.equal(query(value), true)
  t.same(value, { limit: 20 }, 'the query value became a number')
  t.equal(messageOf(query, 'querystring')({ limit: '500' }), 'Invalid querystring: limit must be <= 100')
  t.equal(compile(schema)({ limit: '20' }), false, 'the same text in a body is refused')
})

t.test('a oneOf tagged by a property words an unknown or missing tag, and checks the value against its own branch', async (t) => {
  const branch = (key: string, value: ReturnType<typeof Type.Object>) =>
    Type.Object({ kind: Type.Literal(key, { 'x-error-prefix': 'Invalid kind' }), value: { ...value, 'x-error-prefix': `Invalid value for ${key}` } }, { additionalProperties: false })
  const schema = {
    type: 'object',
    required: ['kind', 'value'],
    discriminator: { propertyName: 'kind' },
    oneOf: [branch('circle', Type.Object({ radius: Type.Number() })), branch('square', Type.Object({ side: Type.Number() }))],
    'x-error-prefix': 'Invalid kind or missing parameters',
  }
  const message = messageOf(compile(schema))
  t.equal(message({ kind: 'circle', value: { radius: 2 } }), 'ok')
  t.equal(message({ value: {} }), 'Invalid kind or missing parameters: kind is required (circle or square)')
  t.equal(message({ kind: '', value: {} }), 'Invalid kind or missing parameters: kind is required (circle or square)')
  t.equal(message({ kind: 'hexagon', value: {} }), 'Invalid kind "hexagon": kind must be one of "circle", "square"')
  t.equal(message({ kind: 'square', value: { side: 'x' } }), 'Invalid value for square: value.side must be number')
  t.equal(message({ kind: 'square', value: null }), 'Invalid kind or missing parameters: value is required')
  t.equal(message({ kind: 'square' }), 'Invalid kind or missing parameters: value is required')
})
