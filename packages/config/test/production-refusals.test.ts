import t from 'tap'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ConfigError, Env, Type, loadConfig } from '../src/index.ts'

// Issue 15 point 4: production refuses unsafe settings at start, naming each.
const Schema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  PUBLIC_URL: Env.PUBLIC_URL,
  ADMIN_EMAIL: Env.ADMIN_EMAIL,
  OIDC_ISSUER: Env.OIDC_ISSUER,
  OIDC_CLIENT_ID: Env.OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET: Env.OIDC_CLIENT_SECRET,
  SESSION_SECRET: Env.SESSION_SECRET,
  INTERNAL_AUTH_SECRET: Env.INTERNAL_AUTH_SECRET,
  CREDENTIALS_KEY: Env.CREDENTIALS_KEY,
  CREDENTIALS_PREVIOUS_KEYS: Env.CREDENTIALS_PREVIOUS_KEYS,
  WEBHOOK_SECRET: Env.WEBHOOK_SECRET,
})

const SAFE = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://signals.example.com',
  ADMIN_EMAIL: 'ops@signals.example.com',
  OIDC_ISSUER: 'https://accounts.google.com',
  OIDC_CLIENT_ID: '1234.apps.googleusercontent.com',
  OIDC_CLIENT_SECRET: 'a-real-client-secret-from-google',
  SESSION_SECRET: 'p'.repeat(48),
  INTERNAL_AUTH_SECRET: 'q'.repeat(48),
  CREDENTIALS_KEY: Buffer.alloc(32, 9).toString('base64'),
  WEBHOOK_SECRET: 'a-long-webhook-secret',
}

const refusal = (env: Record<string, string | undefined>) => {
  try {
    loadConfig(Schema, env)
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  return null
}

t.test('a safe production configuration loads', async (t) => {
  t.equal(loadConfig(Schema, SAFE).PUBLIC_URL, 'https://signals.example.com')
})

t.test('each unsafe production setting is named', async (t) => {
  const cases: [Record<string, string | undefined>, string, RegExp][] = [
    [{ PUBLIC_URL: 'http://signals.example.com' }, 'PUBLIC_URL', /must be https in production/],
    [{ WEBHOOK_SECRET: undefined }, 'WEBHOOK_SECRET', /required in production.*ALLOW_OPEN_WEBHOOK=true/],
    [{ ADMIN_EMAIL: 'admin@example.com' }, 'ADMIN_EMAIL', /development default/],
    [{ ADMIN_EMAIL: 'ops@signals.example.com, admin@example.com' }, 'ADMIN_EMAIL', /development default/],
    [{ SESSION_SECRET: 'development-only-session-secret-0123456789' }, 'SESSION_SECRET', /known development value/],
    [{ INTERNAL_AUTH_SECRET: 'development-only-internal-auth-secret-0123456789' }, 'INTERNAL_AUTH_SECRET', /known development value/],
    [{ CREDENTIALS_KEY: 'ZGV2ZWxvcG1lbnQtb25seS1jcmVkZW50aWFscy1rZXk=' }, 'CREDENTIALS_KEY', /known development value/],
    [{ CREDENTIALS_PREVIOUS_KEYS: 'k0:ZGV2ZWxvcG1lbnQtb25seS1jcmVkZW50aWFscy1rZXk=' }, 'CREDENTIALS_PREVIOUS_KEYS', /known development value/],
    [{ OIDC_CLIENT_SECRET: 'signals-dev-client-secret' }, 'OIDC_CLIENT_SECRET', /known development value/],
    [{ OIDC_ISSUER: 'http://oidc:3010' }, 'OIDC_ISSUER', /development identity provider/],
    [{ OIDC_ISSUER: 'https://localhost:3010' }, 'OIDC_ISSUER', /development identity provider/],
    [{ OIDC_CLIENT_ID: 'signals-dev' }, 'OIDC_CLIENT_ID', /development identity provider/],
  ]
  for (const [change, variable, problem] of cases) {
    const error = refusal({ ...SAFE, ...change })
    t.ok(error, `${JSON.stringify(change)} is refused`)
    t.same(error?.offenders, [variable], `only ${variable} is named`)
    t.match(error?.message, problem)
    for (const value of Object.values(change)) if (value && variable !== 'PUBLIC_URL' && variable !== 'ADMIN_EMAIL' && !variable.startsWith('OIDC_I') && variable !== 'OIDC_CLIENT_ID') t.notMatch(error?.message, value, 'the secret is not echoed')
  }
})

t.test('every unsafe setting at once is named in one error', async (t) => {
  const error = refusal({ NODE_ENV: 'production', SESSION_SECRET: 'development-only-session-secret-0123456789' })
  t.same([...(error?.offenders ?? [])].sort(), ['ADMIN_EMAIL', 'CREDENTIALS_KEY', 'INTERNAL_AUTH_SECRET', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ISSUER', 'PUBLIC_URL', 'SESSION_SECRET', 'WEBHOOK_SECRET'])
})

t.test('an open webhook in production is an explicit choice', async (t) => {
  const config = loadConfig(Schema, { ...SAFE, WEBHOOK_SECRET: undefined, ALLOW_OPEN_WEBHOOK: 'true' })
  t.equal(config.WEBHOOK_SECRET, undefined)
  t.ok(refusal({ ...SAFE, WEBHOOK_SECRET: undefined, ALLOW_OPEN_WEBHOOK: 'yes' }), 'only the exact word true opts in')
})

t.test('development keeps its defaults', async (t) => {
  const config = loadConfig(Schema, {})
  t.equal(config.PUBLIC_URL, 'http://localhost:3000')
})

t.test('a variable may be read from the file named by <NAME>_FILE (generated development secrets)', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'config-file-'))
  await writeFile(path.join(dir, 'session'), `${'f'.repeat(40)}\n`)
  const config = loadConfig(Schema, { SESSION_SECRET_FILE: path.join(dir, 'session') })
  t.equal(config.SESSION_SECRET, 'f'.repeat(40), 'trailing newline dropped')
  t.equal(loadConfig(Schema, { SESSION_SECRET: 'e'.repeat(40), SESSION_SECRET_FILE: path.join(dir, 'session') }).SESSION_SECRET, 'e'.repeat(40), 'the variable itself wins')
  const missing = refusal({ SESSION_SECRET_FILE: path.join(dir, 'absent') })
  t.same(missing?.offenders, ['SESSION_SECRET'])
  t.match(missing?.message, /SESSION_SECRET_FILE.*cannot be read/)
})

// Issue 21 item 7: a Redis or NATS server off this machine must be logged into in production.
t.test('production refuses Redis and NATS servers off this machine without credentials', async (t) => {
  const BusSchema = Type.Object({
    NODE_ENV: Env.NODE_ENV,
    REDIS_URL: Env.REDIS_URL,
    NATS_URL: Env.NATS_URL,
    NATS_USER: Env.NATS_USER,
    NATS_PASSWORD: Env.NATS_PASSWORD,
    NATS_TOKEN: Env.NATS_TOKEN,
  })
  const cluster = 'nats://nats-0.nats:4222,nats://nats-1.nats:4222,nats://nats-2.nats:4222'
  const safe = { NODE_ENV: 'production', REDIS_URL: 'redis://signals:r3dis-pass@redis.internal:6379', NATS_URL: cluster, NATS_USER: 'signals', NATS_PASSWORD: 'n4ts-pass' }
  const load = (env: Record<string, string | undefined>) => {
    try {
      loadConfig(BusSchema, env)
      return null
    } catch (error) {
      if (error instanceof ConfigError) return error
      throw error
    }
  }
  t.equal(load(safe), null, 'an ACL user and NATS_USER/NATS_PASSWORD load')
  const accepted: Record<string, string | undefined>[] = [
    { NATS_USER: undefined, NATS_PASSWORD: undefined, NATS_URL: 'nats://signals:pw@nats-0.nats:4222,nats://signals:pw@nats-1.nats:4222' },
    { NATS_USER: undefined, NATS_PASSWORD: undefined, NATS_TOKEN: 'a-nats-token' },
    { NATS_USER: undefined, NATS_PASSWORD: undefined, NATS_URL: 'nats://127.0.0.1:4222,nats://localhost:4223,nats://[::1]:4224' },
    { REDIS_URL: 'redis://:default-user-pass@redis.internal:6379' },
    { REDIS_URL: 'redis://127.0.0.1:6379' },
    { REDIS_URL: 'redis://localhost:6379' },
  ]
  for (const change of accepted) t.equal(load({ ...safe, ...change }), null, `${JSON.stringify(change)} loads`)

  const refused: [Record<string, string | undefined>, string, RegExp][] = [
    [{ REDIS_URL: 'redis://redis.internal:6379' }, 'REDIS_URL', /redis\.internal, not this machine, without credentials.*ACL user/],
    [{ REDIS_URL: 'redis://signals@redis.internal:6379' }, 'REDIS_URL', /without credentials/],
    [{ NATS_USER: undefined, NATS_PASSWORD: undefined }, 'NATS_URL', /nats-0\.nats, nats-1\.nats, nats-2\.nats, not this machine, without credentials.*NATS_USER/],
    [{ NATS_USER: undefined, NATS_PASSWORD: undefined, NATS_URL: 'nats://u:p@nats-0.nats:4222,nats://nats-1.nats:4222' }, 'NATS_URL', /nats-1\.nats, not this machine/],
    [{ NATS_PASSWORD: undefined }, 'NATS_URL', /without credentials/],
  ]
  for (const [change, variable, problem] of refused) {
    const error = load({ ...safe, ...change })
    t.same(error?.offenders, [variable], `${JSON.stringify(change)}: ${variable} is named`)
    t.match(error?.message, problem)
    t.notMatch(error?.message, /r3dis-pass|n4ts-pass/, 'no password in the message')
  }
  t.equal(load({ ...safe, NODE_ENV: 'development', REDIS_URL: 'redis://redis:6379', NATS_USER: undefined, NATS_PASSWORD: undefined }), null, 'development keeps open servers (docker compose)')
})

t.test('a URL that does not validate is shown without its credentials', async (t) => {
  const error = (() => {
    try {
      loadConfig(Type.Object({ NATS_URL: Env.NATS_URL, REDIS_URL: Env.REDIS_URL }), { NATS_URL: 'nats://u:n4ts-pass@a:4222,http://b', REDIS_URL: 'redis://u:r3dis-pass@a:6379 x' })
    } catch (caught) {
      return caught as ConfigError
    }
  })()
  t.same([...(error?.offenders ?? [])].sort(), ['NATS_URL', 'REDIS_URL'])
  t.match(error?.message, 'nats://[hidden]@a:4222,http://b')
  t.match(error?.message, 'redis://[hidden]@a:6379 x')
  t.notMatch(error?.message, /n4ts-pass|r3dis-pass/)
})
