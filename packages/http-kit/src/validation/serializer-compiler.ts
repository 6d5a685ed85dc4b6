import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

type SerializerFactory = ReturnType<typeof SerializerSelector>

/**
 * Fastify's own response serializers (fast-json-stringify), each built at its route's first answer with
 * that status instead of when the route is registered. A service registers every route at start-up and
 * answers most of them seldom (settings' pages, the admin's, docs); a built serializer is generated source,
 * its compiled function and, for schemas with `anyOf`/`if`, an ajv of its own, kept for the process's life:
 * 49 of them in settings held 0.65 MiB of source alone at rest (docs/decisions/memory.md). The serializer is
 * the same one, built once; only when changes.
 */
export function serializerAtFirstUse(): SerializerFactory {
  const build = SerializerSelector()
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options)
    return (route) => {
      let serialize: ((doc: unknown) => string) | undefined
      return (doc: unknown) => (serialize ??= compile(route))(doc)
    }
  }
}
