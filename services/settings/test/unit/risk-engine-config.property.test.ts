import t from 'tap'
import fc from 'fast-check'
import { createValidatorCompiler, describeSchemaErrors } from '@signals/http-kit'
import { DEFAULT_RISK_ENGINE_CONFIG, RISK_AREAS, RiskEngineConfig, crossFieldProblem } from '@signals/risk-engine'

// The validator and the wording the POST route uses, exactly as every service's Fastify builds them.
const validate = createValidatorCompiler()({ schema: RiskEngineConfig, httpPart: 'body', method: 'POST', url: '/api/risk-engine/config' }) as ((value: unknown) => boolean) & { errors: Parameters<typeof describeSchemaErrors>[0] | null }
const errorOf = (value: unknown) => (validate(value) ? null : describeSchemaErrors(validate.errors ?? [], 'body'))

interface NumericField {
  area: string
  field: string
  minimum: number
  maximum: number
  integer: boolean
}
const numericFields: NumericField[] = RISK_AREAS.flatMap((area) =>
  Object.entries((RiskEngineConfig.properties[area] as unknown as { properties: Record<string, Record<string, unknown>> }).properties)
    .map(([field, schema]) => ({ field, schema: (schema.anyOf as Record<string, unknown>[] | undefined)?.find((s) => s.type === 'number') ?? schema }))
    .filter(({ schema }) => schema.type === 'number' || schema.type === 'integer')
    .map(({ field, schema }) => ({ area, field, minimum: schema.minimum as number, maximum: schema.maximum as number, integer: schema.type === 'integer' })),
)

const withValue = (area: string, field: string, value: unknown) => {
  const config = structuredClone(DEFAULT_RISK_ENGINE_CONFIG) as unknown as Record<string, Record<string, unknown>>
  ;(config[area] as Record<string, unknown>)[field] = value
  return config
}

t.test('the defaults pass every rule', async (t) => {
  t.equal(errorOf(DEFAULT_RISK_ENGINE_CONFIG), null)
  t.equal(crossFieldProblem(DEFAULT_RISK_ENGINE_CONFIG), null)
  t.ok(numericFields.length >= 18, `${numericFields.length} bounded numeric fields`)
})

t.test('any in-bounds value of any numeric field passes the schema', async (t) => {
  fc.assert(
    fc.property(fc.constantFrom(...numericFields), fc.double({ min: 0, max: 1, noNaN: true }), (spec, share) => {
      const raw = spec.minimum + share * (spec.maximum - spec.minimum)
      const value = spec.integer ? Math.min(spec.maximum, Math.max(spec.minimum, Math.round(raw))) : raw
      return errorOf(withValue(spec.area, spec.field, value)) === null
    }),
    { numRuns: 500 },
  )
  t.pass('500 random in-bounds values accepted')
})

t.test('any out-of-bounds value is refused with a message naming that field', async (t) => {
  fc.assert(
    fc.property(fc.constantFrom(...numericFields), fc.boolean(), fc.double({ min: 1e-6, max: 1e9, noNaN: true }), (spec, below, distance) => {
      const step = spec.integer ? Math.ceil(distance) : distance
      const value = below ? spec.minimum - step : spec.maximum + step
      const message = errorOf(withValue(spec.area, spec.field, value))
      return message !== null && message.includes(`${spec.area}.${spec.field}`)
    }),
    { numRuns: 500 },
  )
  t.pass('500 random out-of-bounds values refused, each naming its field')
})

t.test('any unknown field, at any level, is refused by name', async (t) => {
  const known = new Set<string>([...RISK_AREAS, ...numericFields.map((f) => f.field), 'enabled', 'mode', 'type', 'phase'])
  fc.assert(
    fc.property(
      fc.constantFrom<string | null>(null, ...RISK_AREAS),
      fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_]{0,20}$/).filter((name) => !known.has(name)),
      (area, name) => {
        const config = structuredClone(DEFAULT_RISK_ENGINE_CONFIG) as unknown as Record<string, Record<string, unknown>>
        if (area === null) (config as Record<string, unknown>)[name] = 1
        else (config[area] as Record<string, unknown>)[name] = 1
        const message = errorOf(config)
        return message !== null && message.includes(`${area === null ? '' : `${area}.`}${name} is not a known field`)
      },
    ),
    { numRuns: 300 },
  )
  t.pass('300 random unknown fields refused by name')
})
