import { execFileSync } from 'node:child_process'
import t from 'tap'

// A connector with no session of a broker does not load that broker's adapter and its client (ProjectX's
// SignalR, Tradovate's WebSocket): they were loaded at start and held for the process's life
// (docs/decisions/memory.md, eighth pass). In a process of its own, so nothing else loaded them.
t.test("a broker's adapter and its client load at its first login, not with the app", async (t) => {
  const probe = `import { registerHooks } from 'node:module'
const loaded = new Set()
const watched = { projectx: '/feeds/broker/projectx/adapter.ts', signalr: '/@microsoft/signalr/', tradovate: '/feeds/broker/tradovate/adapter.ts', ws: '/node_modules/ws/' }
registerHooks({ load(url, context, next) { for (const [name, part] of Object.entries(watched)) if (url.includes(part)) loaded.add(name); return next(url, context) } })
const at = () => [...loaded].sort().join(',')
await import(${JSON.stringify(new URL('../../../src/app.ts', import.meta.url).href)})
const { BrokerAdapters } = await import(${JSON.stringify(new URL('../../../src/feeds/broker/adapters.ts', import.meta.url).href)})
const withApp = at()
const adapters = new BrokerAdapters()
await adapters.of('projectx')
const afterProjectX = at()
await adapters.of('paper')
console.log(JSON.stringify({ withApp, afterProjectX, afterPaper: at() }))`
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { encoding: 'utf8' })
  t.same(JSON.parse(out.trim().split('\n').at(-1) ?? '{}'), { withApp: '', afterProjectX: 'projectx,signalr', afterPaper: 'projectx,signalr,tradovate,ws' })
})
