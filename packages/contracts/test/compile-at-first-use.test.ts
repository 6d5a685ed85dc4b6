import t from 'tap'
import { Type, type TSchema } from 'typebox'
import { contract } from '../src/index.ts'

/** The schema behind a proxy counting every property read, so a test sees when it is compiled. */
function watched<S extends TSchema>(schema: S): { schema: S; reads: () => number } {
  let reads = 0
  const proxy = new Proxy(schema, {
    get(target, key, receiver) {
      reads++
      return Reflect.get(target, key, receiver) as unknown
    },
  })
  return { schema: proxy, reads: () => reads }
}

// Contracts are made when their modules load; most of a process's are used seldom or never, and a compiled
// one keeps its generated source and function for good (docs/decisions/memory.md).
t.test('a contract compiles its schema at its first use, once', async (t) => {
  const { schema, reads } = watched(Type.Object({ id: Type.String({ minLength: 1 }), size: Type.Integer({ minimum: 1 }) }))
  const lease = contract(schema)
  t.equal(reads(), 0, 'making the contract reads nothing of its schema')

  t.ok(lease.check({ id: 'a', size: 2 }), 'the first check passes a valid value')
  const compiledReads = reads()
  t.ok(compiledReads > 0, 'the first check compiled the schema')

  t.notOk(lease.check({ id: '', size: 2 }))
  t.same(lease.validate({ id: 'a', size: 1 }), { ok: true, value: { id: 'a', size: 1 } })
  t.equal(lease.problem({ id: 'a', size: 3 }), null)
  t.equal(reads(), compiledReads, 'later checks compile nothing again')

  // Listing a value's issues walks the schema (TypeBox's Errors), as it did before.
  t.match(lease.validate({ id: 'a', size: 0 }), { ok: false, issues: [{ path: '/size' }] }, 'issues name the path')
  t.match(lease.problem({ id: 'a' }), /size/, 'a missing property is named')
})
