import t from 'tap'
import { beforeIdOf, nextCursorOf, nextTimeKeyCursorOf, timeKeyOf } from '../src/paging.ts'

t.test('an id-ordered page: the cursor is the last id of a full page, and reads back as that id', async (t) => {
  t.equal(nextCursorOf([{ id: 9 }, { id: 7 }], 2), '7')
  t.equal(nextCursorOf([{ id: 9 }], 2), null, 'a short page is the last')
  t.equal(nextCursorOf([], 2), null)
  t.equal(beforeIdOf('7'), 7)
  t.equal(beforeIdOf(undefined), undefined)
})

t.test('a time-then-key page: the cursor keeps the microseconds and any key, dots and non-ASCII included', async (t) => {
  const rows = [{ micros: '1767323045006999', key: 'a' }, { micros: '1767323045006500', key: 'sub.|ünï/+=' }]
  const cursor = nextTimeKeyCursorOf(rows, 2, (row) => row)
  t.match(cursor, /^1767323045006500\.[A-Za-z0-9_-]+$/)
  t.same(timeKeyOf(cursor ?? undefined), rows[1])
  t.equal(nextTimeKeyCursorOf(rows, 3, (row) => row), null, 'a short page is the last')
  t.equal(timeKeyOf(undefined), undefined)
})
