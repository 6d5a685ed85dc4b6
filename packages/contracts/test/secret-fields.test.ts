import t from 'tap'
import { isSecretName, redactSecretFields, redactSecretText } from '../src/index.ts'

t.test('secret-looking names, whatever their case or spelling', async (t) => {
  for (const name of ['secret', 'WEBHOOK_SECRET', 'token', 'accessToken', 'password', 'passwd', 'Passphrase', 'apiKey', 'API_KEY', 'private-key', 'credentials', 'Authorization', 'signature', 'cookie', 'session_id', 'pwd', 'Pass-Phrase', 'pass_phrase', 'PASS PHRASE', 'Pass_Word', 'pass.word', 'Session-Id', 'sessionID', 'Secret_Key', 'X-Api-Key', 'ACCESS-TOKEN']) {
    t.ok(isSecretName(name), name)
  }
  for (const name of ['symbol', 'action', 'user_id', 'entryPrice', 'stop_loss', 'take_profit', 'quantity', 'indicator', 'account_id', 'message', 'result', 'id', 'orderType', 'time', 'max_lag']) {
    t.notOk(isSecretName(name), name)
  }
})

t.test('payloads: every secret-named field at any depth, arrays included; the rest as it was', async (t) => {
  const payload = { a: 1, token: 't', list: [{ apiKey: 'k', keep: 'x' }, 'plain'], deep: { deeper: { Password: { nested: 'p' } } }, note: 'Token: in-text' }
  t.same(redactSecretFields(payload), { a: 1, token: '[redacted]', list: [{ apiKey: '[redacted]', keep: 'x' }, 'plain'], deep: { deeper: { Password: '[redacted]' } }, note: 'Token: [redacted]' })
  t.same(payload.token, 't', 'the original is not changed')
  const proto = JSON.parse('{"__proto__": {"secret": "s"}}') as unknown
  t.same(Object.getPrototypeOf(redactSecretFields(proto)), Object.prototype, 'a __proto__ key stays data')
})

t.test('text: JSON members (also JSON inside a JSON string), label lines and form pairs', async (t) => {
  t.equal(redactSecretText('{"symbol":"NQ1!","token":"abc","n":1,"key":42}'), '{"symbol":"NQ1!","token":"[redacted]","n":1,"key":"[redacted]"}')
  t.equal(redactSecretText(JSON.stringify({ message: JSON.stringify({ passphrase: 'p4ss', symbol: 'ES1!' }) })), JSON.stringify({ message: JSON.stringify({ passphrase: '[redacted]', symbol: 'ES1!' }) }))
  t.equal(redactSecretText('Action: Buy\nAPI Key: abc def\n  secret = xyz\nSymbol: NQ1!'), 'Action: Buy\nAPI Key: [redacted]\n  secret = [redacted]\nSymbol: NQ1!')
  t.equal(redactSecretText('action=buy&token=abc&symbol=NQ1'), 'action=buy&token=[redacted]&symbol=NQ1')
  t.equal(redactSecretText('nothing secret about "this" text'), 'nothing secret about "this" text')
  t.equal(redactSecretText('{"symbol":"NQ1!","Pass-Phrase":"pp","session-id":"s1"}'), '{"symbol":"NQ1!","Pass-Phrase":"[redacted]","session-id":"[redacted]"}', 'a separator inside the name')
  t.equal(redactSecretText('Pass Word: hunter2\nSymbol: NQ1!'), 'Pass Word: [redacted]\nSymbol: NQ1!')
})
