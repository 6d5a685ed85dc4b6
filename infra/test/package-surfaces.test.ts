import { execFile } from 'node:child_process'
import { readFile, readdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'

const root = fileURLToPath(new URL('../../', import.meta.url))
const run = promisify(execFile)

async function workspacePackages(): Promise<{ dir: string; manifest: { name: string; exports?: unknown } }[]> {
  const found = []
  for (const group of ['packages', 'dev']) {
    for (const name of await readdir(`${root}${group}`)) {
      const text = await readFile(`${root}${group}/${name}/package.json`, 'utf8').catch(() => null)
      if (text) found.push({ dir: `${group}/${name}`, manifest: JSON.parse(text) as { name: string; exports?: unknown } })
    }
  }
  return found
}

t.test('every shared package exports its public names from its index only', async (t) => {
  const packages = await workspacePackages()
  t.ok(packages.length >= 10, 'the shared packages were found')
  for (const { dir, manifest } of packages) {
    const exports = manifest.exports as Record<string, unknown>
    // Test support never runs compiled; every other package is reached in dist/ under the `compiled`
    // condition (the production build, docs/decisions/deployment.md) and in src/ otherwise.
    const expected = dir === 'packages/test-support' ? './src/index.ts' : { compiled: './dist/index.js', default: './src/index.ts' }
    t.same(exports['.'], expected, `${manifest.name}: "." is src/index.ts (compiled: dist/index.js)`)
    const others = Object.keys(exports).filter((key) => key !== '.')
    // Named extra entries: the development provider's test client (tests sign in with it) and the paper
    // broker's simulated market, which the ProjectX paper broker puts its own wire face on.
    const extraEntries: Record<string, string[]> = { 'dev/oidc-provider': ['./test-client'], 'dev/paper-broker': ['./engine'] }
    const allowed = extraEntries[dir] ?? []
    t.same(others, allowed, `${manifest.name}: no wildcard or extra entries`)
  }
})

t.test('services without a database never load the Postgres driver', async (t) => {
  const probe = `${root}infra/test/fixtures/count-loaded-pg.ts`
  const count = async (app: string) =>
    Number((await run(process.execPath, ['--import', 'tsx', probe, `${root}${app}`], { cwd: root })).stdout.trim())
  t.equal(await count('services/ingest/src/app.ts'), 0, 'ingest loads no pg file')
  t.equal(await count('services/gateway/src/app.ts'), 0, 'gateway loads no pg file')
  t.ok((await count('services/settings/src/app.ts')) > 0, 'the probe does see pg where a service uses it (settings)')
})
