import t from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { createServiceApp } from '../../packages/http-kit/src/index.ts'

// The Grafana dashboard and the Prometheus alert rules in infra/ parse, and every metric they query exists:
// a service's own metrics are named in its source, the shared ones (HTTP, process, Node) on /metrics.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

interface Rule {
  alert?: string
  expr: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
}
const rules = parse(readFileSync(path.join(root, 'infra/prometheus/alerts.yml'), 'utf8')) as { groups: { name: string; rules: Rule[] }[] }
const dashboard = JSON.parse(readFileSync(path.join(root, 'infra/grafana/dashboard.json'), 'utf8')) as {
  uid: string
  panels: { type: string; title: string; targets?: { expr: string }[] }[]
}

/** Every `.ts` file under the services' and packages' `src/`. */
function sources(): string[] {
  const files: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.name.endsWith('.ts')) files.push(full)
    }
  }
  for (const top of ['services', 'packages']) {
    for (const entry of readdirSync(path.join(root, top), { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(root, top, entry.name, 'src'))
    }
  }
  return files
}

/** Metric names the code defines: quoted names of our prefixes in the sources, and what a bare service app serves. */
async function definedMetrics(): Promise<Set<string>> {
  const names = new Set<string>()
  for (const file of sources()) {
    for (const match of readFileSync(file, 'utf8').matchAll(/['"]((?:bus|connector|ingest|http)_[a-z0-9_]+)['"]/g)) names.add(match[1] as string)
  }
  const app = await createServiceApp({ service: 'metrics-names', logLevel: 'silent' })
  try {
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body
    for (const match of text.matchAll(/^# TYPE (\S+) /gm)) names.add(match[1] as string)
  } finally {
    await app.close()
  }
  names.add('up') // Prometheus's own, per scrape target
  return names
}

const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset', 'le', 'inf', 'nan'])

/** The metric names an expression reads: label matchers, grouping clauses, ranges, strings and functions left out. */
function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\b\d+(\.\d+)?(e[+-]?\d+)?\b/gi, ' ')
  return [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter((match) => match[2] === undefined && !PROMQL_WORDS.has((match[1] as string).toLowerCase()) && !/^\d/.test(match[1] as string))
    .map((match) => match[1] as string)
}

/** `x_bucket`, `x_sum` and `x_count` are the series of histogram `x`. */
const baseName = (name: string, defined: Set<string>) => {
  const base = name.replace(/_(bucket|sum|count)$/, '')
  return defined.has(name) ? name : base
}

t.test('the expression reader finds metric names and nothing else', async (t) => {
  t.same(metricsOf('histogram_quantile(0.99, sum by (le) (rate(connector_alert_to_order_seconds_bucket[5m]))) > 2'), ['connector_alert_to_order_seconds_bucket'])
  t.same(metricsOf('max by (stream, durable) (bus_consumer_pending_messages) > 0 and max(x_total{state="up", a=~"b.."}) == 0'), ['bus_consumer_pending_messages', 'x_total'])
  t.same(metricsOf('max by (service) (process_resident_memory_bytes) > 200e6'), ['process_resident_memory_bytes'])
})

t.test('the alert rules parse; each has a name, a severity, a summary and an expression', async (t) => {
  const all = rules.groups.flatMap((group) => group.rules)
  t.ok(all.length >= 10, `${all.length} rules`)
  for (const rule of all) {
    t.match(rule, { alert: /^[A-Z][A-Za-z]+$/, expr: /\S/, labels: { severity: /^(warning|critical)$/ }, annotations: { summary: /\S/ } }, rule.alert ?? rule.expr)
  }
  t.equal(new Set(all.map((rule) => rule.alert)).size, all.length, 'rule names are unique')
})

t.test('the dashboard parses; each panel but the rows queries something', async (t) => {
  t.equal(dashboard.uid, 'signals-platform')
  const queried = dashboard.panels.filter((panel) => panel.type !== 'row')
  t.ok(queried.length >= 10)
  for (const panel of queried) t.ok((panel.targets ?? []).length > 0 && panel.targets?.every((target) => target.expr.length > 0), panel.title)
})

t.test('every metric the rules and the dashboard read is one the code defines', async (t) => {
  const defined = await definedMetrics()
  const expressions = [...rules.groups.flatMap((group) => group.rules.map((rule) => rule.expr)), ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr))]
  const read = new Set(expressions.flatMap(metricsOf))
  t.ok(read.size >= 10, [...read].join(', '))
  for (const required of ['bus_consumer_pending_messages', 'bus_consumer_redeliveries_total', 'bus_dead_letters_total', 'connector_broker_feeds', 'connector_orders_total', 'connector_alert_to_order_seconds_bucket']) {
    t.ok(read.has(required), `${required} is watched`)
  }
  const unknown = [...read].filter((name) => !defined.has(baseName(name, defined)))
  t.same(unknown, [], 'no metric is read that the code does not define')
})
