import t from 'tap'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url))

t.test('a malformed CREDENTIALS_KEY stops the service at start with one clear message and no key in it', async (t) => {
  // 44 characters of base64 (passes the shape check) but 33 bytes: not an AES-256 key.
  const badKey = Buffer.alloc(33, 7).toString('base64')
  const result = spawnSync(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, NODE_ENV: 'development', CREDENTIALS_KEY: badKey, SETTINGS_PORT: '1' },
    encoding: 'utf8',
    timeout: 30_000,
  })
  t.equal(result.status, 78, 'exits with EX_CONFIG')
  t.match(result.stderr, /CREDENTIALS_KEY: \(hidden\) is not valid: expected 32 bytes/)
  t.notMatch(result.stderr, badKey, 'the key is not echoed')
})
