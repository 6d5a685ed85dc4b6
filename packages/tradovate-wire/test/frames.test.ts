import t from 'tap'
import { arrayFrame, closeFrame, formatRequest, parseRequest, parseServerFrame } from '../src/index.ts'

t.test('requests: endpoint, id, query and body on their own lines, empty parts kept', async (t) => {
  t.equal(formatRequest('authorize', 0, 'token'), 'authorize\n0\n\ntoken')
  t.equal(formatRequest('contract/find', 3, '', 'name=MNQZ6'), 'contract/find\n3\nname=MNQZ6\n')
  t.same(parseRequest('order/placeOSO\n7\n\n{"a":1}'), { endpoint: 'order/placeOSO', id: 7, query: '', body: '{"a":1}' })
  t.same(parseRequest('x\n1\n\nline1\nline2'), { endpoint: 'x', id: 1, query: '', body: 'line1\nline2' }, 'a body may hold new lines')
  t.equal(parseRequest('[]'), null, 'the heartbeat is not a request')
  t.equal(parseRequest('x\nnot-a-number\n\n'), null)
  t.equal(parseRequest('\n1\n\n'), null, 'no endpoint')
  t.equal(parseRequest('x\n\n\n'), null, 'no id')
})

t.test('server frames: open, heartbeat, close with code and reason, arrays split into responses and events', async (t) => {
  t.same(parseServerFrame('o'), { kind: 'open' })
  t.same(parseServerFrame('h'), { kind: 'heartbeat' })
  t.same(parseServerFrame(closeFrame(1000, 'bye')), { kind: 'close', code: 1000, reason: 'bye' })
  const frame = arrayFrame([{ i: 1, s: 200, d: { ok: true } }, { e: 'props', d: { entityType: 'order' } }])
  t.same(parseServerFrame(frame), { kind: 'array', responses: [{ i: 1, s: 200, d: { ok: true } }], events: [{ e: 'props', d: { entityType: 'order' } }] })
  t.same(parseServerFrame('a[1,null,{"x":1}]'), { kind: 'array', responses: [], events: [] }, 'messages of no known shape are skipped')
  t.same(parseServerFrame('a{'), { kind: 'unknown' })
  t.same(parseServerFrame('a{}'), { kind: 'unknown' }, 'an array frame must hold an array')
  t.same(parseServerFrame('z'), { kind: 'unknown' })
})
