import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'

const root = fileURLToPath(new URL('../../', import.meta.url))
const run = promisify(execFile)

t.test('no tracked file keeps the markers of an unresolved merge', async (t) => {
  // git grep reads the committed tree's files as they are in the work tree; exit 1 means "none found".
  const found = await run('git', ['grep', '-n', '-I', '-E', '^(<<<<<<< |>>>>>>> |=======$)', '--', '.', ':!pnpm-lock.yaml'], { cwd: root }).then(
    ({ stdout }) => stdout.trim(),
    (error: { code?: number; stdout?: string }) => (error.code === 1 ? '' : `git grep failed: ${String(error.stdout)}`),
  )
  t.equal(found, '', 'no conflict markers')
})
