import t from 'tap'
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const services = readdirSync(path.join(root, 'services'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

t.test('every service refuses to start on bad configuration, naming each offending variable once', async (t) => {
  for (const service of services) {
    const result = spawnSync(process.execPath, ['--import', 'tsx', `services/${service}/src/main.ts`], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        LOG_LEVEL: 'loud',
        HOST: '127.0.0.1',
      },
      encoding: 'utf8',
      timeout: 60_000,
    })
    t.equal(result.status, 78, `${service} exits with EX_CONFIG`)
    t.match(result.stderr, new RegExp(`^${service}: Invalid configuration`), `${service} says what is wrong`)
    t.match(result.stderr, /LOG_LEVEL: "loud" is not valid/, `${service} names LOG_LEVEL`)
    const secretLines = result.stderr.split('\n').filter((line) => /is required in production/.test(line))
    t.ok(secretLines.length >= (service === 'ingest' ? 0 : 1), `${service} names its missing secrets`)
    t.equal(result.stderr.split('\n').filter((line) => line.includes('LOG_LEVEL')).length, 1, 'each variable named once')
  }
})
