// The Helm chart check CI runs (`node --import tsx scripts/check-chart.ts`): `helm lint --strict`, then
// `helm template` with the example production values and every object validated against the Kubernetes
// schemas in strict mode (docs/decisions/deployment.md). Exits 1 naming each problem. The same check, and
// what the chart must contain, is in infra/test/helm-chart.test.ts.
import { EXAMPLE_VALUES, lintChart, renderChart, schemaProblems } from '../infra/helm-check/chart.ts'

const started = Date.now()
const options = { valuesFiles: [EXAMPLE_VALUES] }
try {
  await lintChart(options)
  const objects = await renderChart(options)
  const problems = await schemaProblems(objects)
  for (const problem of problems) process.stderr.write(`${problem}\n`)
  const kinds = [...new Set(objects.map((object) => object.kind))].sort().join(', ')
  process.stdout.write(`helm chart: ${objects.length} objects (${kinds}), ${problems.length} schema problem(s), ${Date.now() - started} ms\n`)
  process.exit(problems.length === 0 ? 0 : 1)
} catch (error) {
  process.stderr.write(`helm chart: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
}
