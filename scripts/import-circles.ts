// Fails (exit 1) when source files import each other in a circle, anywhere in the workspace's src/ folders
// (packages, services, dev): a circle hides which file is the lower one. Run by `pnpm lint`.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g

function sourceFiles(dir: string, into: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'test' || name === 'public') continue
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) sourceFiles(full, into)
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && full.includes(`${path.sep}src${path.sep}`)) into.push(full)
  }
  return into
}

const files = ['packages', 'services', 'dev'].flatMap((top) => sourceFiles(path.join(root, top)))
const known = new Set(files)
const edges = new Map(files.map((file) => [file, [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => path.resolve(path.dirname(file), m[1]!)).filter((to) => known.has(to))]))

// Tarjan's strongly connected components: every component of two files or more is a circle.
const index = new Map<string, number>()
const low = new Map<string, number>()
const stack: string[] = []
const onStack = new Set<string>()
const circles: string[][] = []
function visit(file: string): void {
  index.set(file, index.size)
  low.set(file, index.get(file)!)
  stack.push(file)
  onStack.add(file)
  for (const to of edges.get(file)!) {
    if (!index.has(to)) {
      visit(to)
      low.set(file, Math.min(low.get(file)!, low.get(to)!))
    } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!))
  }
  if (low.get(file) !== index.get(file)) return
  const component: string[] = []
  for (let top = stack.pop()!; ; top = stack.pop()!) {
    onStack.delete(top)
    component.push(path.relative(root, top))
    if (top === file) break
  }
  if (component.length > 1) circles.push(component)
}
for (const file of files) if (!index.has(file)) visit(file)

if (circles.length > 0) {
  for (const circle of circles) process.stderr.write(`import circle: ${circle.sort().join(' <-> ')}\n`)
  process.exit(1)
}
process.stdout.write(`no import circle among ${files.length} source files\n`)
