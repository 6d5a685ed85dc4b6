import type { Deployment } from 'kubernetes-models/apps/v1/Deployment'

/**
 * Strict validation of Kubernetes objects against the Kubernetes API's own schemas, as kubeconform
 * `-strict` does it (docs/decisions/deployment.md): `kubernetes-models` carries a validator generated
 * from the Kubernetes OpenAPI definitions for every built-in kind (required fields, types, formats such
 * as quantities and int-or-string, enums); strict mode adds what those definitions leave open: a field
 * the schema does not declare is refused. The validators read every declared field of an object and walk
 * maps (labels, data, resource limits) key by key, so the fields they never looked at are the unknown ones.
 */

/** A kind's model class: its prototype's `validate` runs the kind's generated validator on `this`. */
interface ModelClass {
  prototype: Pick<Deployment, 'validate'>
}

interface SchemaError {
  instancePath: string
  message?: string
}

/** An object's problems, each `path: what is wrong`; empty when it is valid. */
export async function kubernetesProblems(object: unknown): Promise<string[]> {
  if (!isRecord(object) || typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
    return ['not a Kubernetes object (apiVersion and kind are required)']
  }
  // The package keeps the alpha and beta versions of older Kubernetes releases (policy/v1beta1, removed in
  // 1.25, still validates): only stable versions are accepted, each checked against its current schema.
  if (!/^([a-z0-9.-]+\/)?v\d+$/.test(object.apiVersion)) return [`${object.apiVersion} is not a stable API version (alpha and beta versions are refused)`]
  const model = await modelOf(object.apiVersion, object.kind)
  if (!model) return [`no schema for ${object.apiVersion} ${object.kind} (not a built-in kind of this Kubernetes version)`]

  const visits: Visit[] = []
  const errors = schemaErrors(model, watched(object, '', visits))
  if (errors.length > 0) return errors.map((error) => `${error.instancePath || '/'}: ${error.message ?? 'is not valid'}`)
  return unknownFields(visits).map((field) => `${field}: is not a field of the schema (strict mode refuses unknown fields)`)
}

async function modelOf(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  // apiVersion is `group/version` or, for the core group, `version`: the package's folders are named so
  // (a stable version only: the caller checked it, so the import names a folder of the package or nothing).
  const module = (await import(`kubernetes-models/${apiVersion}`).catch(() => undefined)) as Record<string, unknown> | undefined
  const candidate = module?.[kind]
  return typeof candidate === 'function' && typeof (candidate as ModelClass).prototype.validate === 'function' ? (candidate as ModelClass) : undefined
}

function schemaErrors(model: ModelClass, object: unknown): SchemaError[] {
  try {
    model.prototype.validate.call(object)
    return []
  } catch (error) {
    const errors = (error as { errors?: SchemaError[] }).errors
    if (!Array.isArray(errors)) throw error
    return errors
  }
}

/** One object or array of the document, and which of its keys the validator read. */
interface Visit {
  path: string
  value: object
  read: Set<string>
  /** The validator listed its keys (a map such as labels): every key was judged. */
  enumerated: boolean
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A copy of `value` whose every object records the keys read from it. */
function watched(value: unknown, path: string, visits: Visit[]): unknown {
  if (typeof value !== 'object' || value === null) return value
  const visit: Visit = { path, value, read: new Set(), enumerated: false }
  visits.push(visit)
  const copy = Array.isArray(value)
    ? value.map((item, index) => watched(item, `${path}/${index}`, visits))
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, watched(item, `${path}/${key}`, visits)]))
  return new Proxy(copy, {
    get(target, key, receiver) {
      if (typeof key === 'string') visit.read.add(key)
      return Reflect.get(target, key, receiver) as unknown
    },
    has(target, key) {
      if (typeof key === 'string') visit.read.add(key)
      return Reflect.has(target, key)
    },
    ownKeys(target) {
      visit.enumerated = true
      return Reflect.ownKeys(target)
    },
  })
}

function unknownFields(visits: readonly Visit[]): string[] {
  return visits
    .filter((visit) => !Array.isArray(visit.value) && !visit.enumerated)
    .flatMap((visit) => Object.keys(visit.value).filter((key) => !visit.read.has(key)).map((key) => `${visit.path}/${key}`))
}
