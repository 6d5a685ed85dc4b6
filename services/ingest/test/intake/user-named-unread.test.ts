import t from 'tap'
import { userNamedUnread } from '../../src/intake/user-named-unread.ts'

t.test('the user a webhook refused before it was read names: query first, then JSON, then label lines', async (t) => {
  t.equal(userNamedUnread('{"action":"buy"}', { userId: ' q-1 ' }), 'q-1', 'a query parameter, any accepted name, trimmed')
  t.equal(userNamedUnread('{"action":"buy"}', { user_id: ['q-2', 'q-3'] }), 'q-2', 'a repeated parameter: the first')
  t.equal(userNamedUnread('{"action":"buy","user_id":"j-1"}', {}), 'j-1', 'a JSON pair')
  t.equal(userNamedUnread('Action: buy\r\nUser ID: l-1\r\n', {}), 'l-1', 'a label line')
  t.equal(userNamedUnread('action=buy\nuser_id = l-2', {}), 'l-2', 'a name=value line')
  t.equal(userNamedUnread('Symbol: user_id\nNote: x', {}), undefined, 'a value that reads user_id is not the name')
  t.equal(userNamedUnread('User ID:    \n', {}), undefined, 'blank is nobody')
  t.equal(userNamedUnread('', null), undefined)
  t.equal(userNamedUnread(`note: ${'a'.repeat(100_000)}`, {}), undefined, 'a long body costs one pass and names nobody')
  t.equal(userNamedUnread(`{"note":"${'a'.repeat(5_000)}","user_id":"late"}`, {}), undefined, 'only the first 4096 characters are looked at')
  t.equal(userNamedUnread(`{"note":"${'a'.repeat(5_000)}"}`, { user: 'q-4' }), 'q-4', 'the query whatever the body')
})
