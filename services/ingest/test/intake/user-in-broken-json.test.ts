import t from 'tap'
import { userNamedInBrokenJson } from '../../src/intake/user-in-broken-json.ts'

t.test('the user a broken JSON body names, under any of its accepted names, before or after the break', async (t) => {
  t.equal(userNamedInBrokenJson('{"user_id":"u-1","action":"buy" "symbol":"NQ1!"}'), 'u-1')
  t.equal(userNamedInBrokenJson('{"action":"buy",, "userId" : "u-2"}'), 'u-2', 'after the break, spaced')
  t.equal(userNamedInBrokenJson('{\n  "User ID": "u-3",\n  "stop": {{plot("Stop")}}\n}'), 'u-3', 'a label-style name')
  t.equal(userNamedInBrokenJson('{"user":"caf\\u00e9"'), 'café', 'JSON escapes read')
  t.equal(userNamedInBrokenJson('{"symbol":"user_id", "note":"x"'), undefined, 'a value that reads user_id is not the name')
  t.equal(userNamedInBrokenJson('{"user_id":"   ", "x":'), undefined, 'blank is nobody')
  t.equal(userNamedInBrokenJson('{"user_id": 42,'), undefined, 'only a string names a user')
  t.equal(userNamedInBrokenJson(`{"note":"${'a'.repeat(100_000)}`), undefined, 'a long broken body costs little and names nobody')
})
