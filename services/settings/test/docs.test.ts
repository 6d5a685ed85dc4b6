import t from 'tap'
import { readFile } from 'node:fs/promises'
import { RISK_AREAS, RiskEngineConfig, DEFAULT_RISK_ENGINE_CONFIG } from '@signals/risk-engine'

t.test('docs/risk-engine-config.md lists every field with the bounds and default of the schema', async (t) => {
  const doc = await readFile(new URL('../../../docs/risk-engine-config.md', import.meta.url), 'utf8')
  for (const area of RISK_AREAS) {
    const properties = (RiskEngineConfig.properties[area] as unknown as { properties: Record<string, Record<string, unknown>> }).properties
    for (const [field, schema] of Object.entries(properties)) {
      const line = doc.split('\n').find((candidate) => candidate.startsWith(`| \`${area}.${field}\` |`))
      t.ok(line, `${area}.${field} is documented`)
      t.ok(line?.includes(`\`${JSON.stringify(schema.default)}\``), `${area}.${field} default matches`)
      const numeric = (schema.anyOf as Record<string, unknown>[] | undefined)?.find((alternative) => alternative.type === 'number') ?? schema
      if (typeof numeric.minimum === 'number') t.ok(line?.includes(`${numeric.minimum} to ${numeric.maximum}`), `${area}.${field} bounds match`)
    }
  }
  const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(doc)?.[1] ?? '{}')
  t.same(example, DEFAULT_RISK_ENGINE_CONFIG, 'the example is the defaults')
})
