import t from 'tap'
import { MemoryStore } from '../src/memory-adapter.ts'

t.test('stores, expires, consumes and revokes per model, and copies payloads', async (t) => {
  const store = new MemoryStore()
  t.teardown(() => store.close())
  const codes = store.adapterFor('AuthorizationCode')
  const sessions = store.adapterFor('Session')

  const payload = { grantId: 'g1', uid: 'u1', userCode: 'UC' }
  await codes.upsert('c1', payload, 60)
  payload.grantId = 'changed'
  t.same(await codes.find('c1'), { grantId: 'g1', uid: 'u1', userCode: 'UC' }, 'a stored copy')
  t.equal(await sessions.find('c1'), undefined, 'models are separate')
  t.equal((await codes.findByUid('u1'))?.grantId, 'g1')
  t.equal((await codes.findByUserCode('UC'))?.grantId, 'g1')

  await codes.consume('c1')
  t.type((await codes.find('c1'))?.consumed, 'number')

  await codes.upsert('c2', { grantId: 'g1' }, 60)
  await codes.upsert('c3', { grantId: 'g2' }, 60)
  await codes.revokeByGrantId('g1')
  t.equal(await codes.find('c1'), undefined)
  t.equal(await codes.find('c2'), undefined)
  t.ok(await codes.find('c3'))

  await codes.destroy('c3')
  t.equal(await codes.find('c3'), undefined)

  await codes.upsert('gone', { grantId: 'g3' }, 0)
  t.equal(await codes.find('gone'), undefined, 'expired at once')
  await codes.upsert('later', { grantId: 'g4' }, 10)
  store.sweep(Date.now() + 11_000)
  t.equal(await codes.find('later'), undefined, 'swept after expiry')
})

t.test('two stores share nothing', async (t) => {
  const one = new MemoryStore()
  const two = new MemoryStore()
  t.teardown(() => {
    one.close()
    two.close()
  })
  await one.adapterFor('Session').upsert('s', { uid: 'x' }, 60)
  t.equal(await two.adapterFor('Session').find('s'), undefined)
})
