import t from 'tap'
import Type from 'typebox'
import { createServiceApp, createValidatorCompiler } from '../../src/index.ts'
import { serializerAtFirstUse } from '../../src/validation/serializer-compiler.ts'

// Validators and response serializers are built at a route's first use, not when it is registered
// (docs/decisions/memory.md): a schema is compiled only when a request needs it, and then once.
// An unresolvable `$ref` is what shows when compiling happens: compiling it throws.
const BROKEN = { $ref: '#/definitions/missing' }

t.test('a validator is compiled at its first request, not when the route is registered', async (t) => {
  const compiler = createValidatorCompiler()
  const validate = compiler({ schema: BROKEN, httpPart: 'body', method: 'POST', url: '/x' })
  t.type(validate, 'function', 'registering the route compiles nothing (compiling this schema throws)')
  t.throws(() => validate({}), /missing/, 'the first request compiles it')
})

t.test('a response serializer is built at its first answer, not when the route is registered', async (t) => {
  const compile = serializerAtFirstUse()(undefined, {})
  const serialize = compile({ schema: BROKEN, method: 'GET', url: '/x', httpStatus: '200' })
  t.type(serialize, 'function', 'registering the route builds nothing (building this schema throws)')
  t.throws(() => serialize({}), /missing|resolve|ref/i, 'the first answer builds it')
})

t.test('routes validate and serialize as before: bodies checked as sent, queries coerced, responses to their schema', async (t) => {
  const app = await createServiceApp({ service: 'kit-test', logLevel: 'silent' })
  t.teardown(() => app.close())
  app.post(
    '/api/things',
    {
      schema: {
        body: Type.Object({ size: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
        querystring: Type.Object({ limit: Type.Integer({ default: 20 }) }),
        response: { 200: Type.Object({ size: Type.Integer(), limit: Type.Integer() }) },
      },
    },
    async (request) => ({ size: request.body.size, limit: request.query.limit, secret: 'not in the schema' }),
  )
  await app.ready()
  for (let round = 0; round < 2; round++) {
    const ok = await app.inject({ method: 'POST', url: '/api/things?limit=5', payload: { size: 2 } })
    t.equal(ok.statusCode, 200)
    t.same(ok.json(), { size: 2, limit: 5 }, 'the query is coerced and the response holds only its schema fields')
    const defaulted = await app.inject({ method: 'POST', url: '/api/things', payload: { size: 3 } })
    t.same(defaulted.json(), { size: 3, limit: 20 }, 'the query takes its default')
    const text = await app.inject({ method: 'POST', url: '/api/things', payload: { size: '2' } })
    t.equal(text.statusCode, 400, 'a body is not coerced: "2" is not an integer')
    t.match(text.json(), { error: /size must be integer/ })
    const extra = await app.inject({ method: 'POST', url: '/api/things', payload: { size: 1, extra: true } })
    t.equal(extra.statusCode, 400, 'an unknown field is refused')
  }
})
