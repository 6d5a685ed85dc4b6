// `pnpm bench`: runs every bench/*.bench.ts in its own process, one after another (never in parallel:
// they measure side by side within one script, and two at once would skew each other). Each prints a
// markdown section and exits 1 when it misses its bar. Filter with `pnpm bench <name>`.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const filter = process.argv[2]
const benches = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts') && (!filter || file.includes(filter)))
  .sort()

if (benches.length === 0) {
  process.stderr.write(`no benchmark matches ${filter ?? '*'}\n`)
  process.exit(1)
}

const outcomes: { bench: string; passed: boolean; seconds: number }[] = []
for (const bench of benches) {
  process.stdout.write(`\n<!-- ${bench} -->\n`)
  const started = Date.now()
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, bench)], {
    stdio: 'inherit',
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  })
  outcomes.push({ bench, passed: result.status === 0, seconds: (Date.now() - started) / 1000 })
}

process.stdout.write('\n## Summary\n\n| benchmark | bar | time |\n|---|---|---|\n')
for (const outcome of outcomes) {
  process.stdout.write(`| ${outcome.bench} | ${outcome.passed ? 'PASS' : 'FAIL'} | ${outcome.seconds.toFixed(1)} s |\n`)
}
process.exit(outcomes.every((outcome) => outcome.passed) ? 0 : 1)
