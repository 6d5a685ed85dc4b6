// Summarises the CPU profiles `BENCH_PROFILE=<dir> pnpm bench platform` writes (one .cpuprofile per
// service and phase, from `node --cpu-prof`): per service, the CPU time sampled (idle excluded) and the
// functions with the most self time, as markdown tables.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** A frame's file, short: Node's own modules by name, a service's bundle as `<service>/main.js`. */
const where = (url: string) => (url.startsWith('file://') ? `${path.basename(path.dirname(path.dirname(url)))}/${path.basename(url)}` : url)

/** Self time in milliseconds by function (name, file and line), and the sampled time that was not idle. */
function selfTimes(profile: CpuProfile): { busyMs: number; byFunction: Map<string, number> } {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const byFunction = new Map<string, number>()
  let busyMs = 0
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)?.callFrame
    const ms = (profile.timeDeltas[i] ?? 0) / 1000
    if (!frame || frame.functionName === '(idle)') return
    busyMs += ms
    const file = frame.url === '' ? '' : ` ${where(frame.url)}:${frame.lineNumber + 1}`
    const key = `${frame.functionName || '(anonymous)'}${file}`
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms)
  })
  return { busyMs, byFunction }
}

function profilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry)
    return statSync(full).isDirectory() ? profilesUnder(full) : entry.endsWith('.cpuprofile') ? [full] : []
  })
}

/** Per service and phase, the sampled CPU time and the `top` functions by self time, as markdown. */
export function summariseProfiles(dir: string, top = 12): string {
  const lines: string[] = []
  for (const file of profilesUnder(dir).sort()) {
    const { busyMs, byFunction } = selfTimes(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile)
    lines.push('', `### ${path.relative(dir, path.dirname(file))}: ${(busyMs / 1000).toFixed(1)} s CPU sampled (idle excluded)`, '', '| self ms | share | function |', '|---|---|---|')
    for (const [name, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`| ${ms.toFixed(0)} | ${((ms / busyMs) * 100).toFixed(1)} % | \`${name}\` |`)
  }
  return lines.join('\n')
}
