import { execFile } from 'node:child_process'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { parseAllDocuments } from 'yaml'
import { helmBinary } from './helm-binary.ts'
import { kubernetesProblems } from './kubernetes-schema.ts'

const run = promisify(execFile)

const CHART_DIR = fileURLToPath(new URL('../helm/signals', import.meta.url))
/** The values of an example production installation (every REQUIRED value set). */
export const EXAMPLE_VALUES = fileURLToPath(new URL('../helm/signals/ci/example-values.yaml', import.meta.url))
const RELEASE = 'signals'

export interface KubernetesObject {
  apiVersion: string
  kind: string
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> }
  [field: string]: unknown
}

export interface RenderOptions {
  valuesFiles?: readonly string[]
  /** `--set` assignments (name=value). */
  set?: readonly string[]
}

/** Thrown when helm refuses the chart; the message is helm's own. */
export class HelmError extends Error {
  override name = 'HelmError'
}

// helm keeps no state for `lint` and `template`; its homes go to the temp folder, not the user's.
const helmHome = path.join(tmpdir(), 'signals-helm')
const HELM_ENV = { ...process.env, HELM_CACHE_HOME: `${helmHome}/cache`, HELM_CONFIG_HOME: `${helmHome}/config`, HELM_DATA_HOME: `${helmHome}/data` }

async function helm(args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run(await helmBinary(), args, { maxBuffer: 16 * 1024 * 1024, env: HELM_ENV })
    return stdout
  } catch (error) {
    throw new HelmError(String((error as { stderr?: string }).stderr ?? error).trim())
  }
}

const valueArgs = (options: RenderOptions) => [...(options.valuesFiles ?? []).flatMap((file) => ['--values', file]), ...(options.set ?? []).flatMap((assignment) => ['--set', assignment])]

/** `helm lint --strict`: the chart's structure, and every template renders without warnings. */
export async function lintChart(options: RenderOptions = {}): Promise<string> {
  return helm(['lint', '--strict', CHART_DIR, ...valueArgs(options)])
}

/** `helm template`: every object the chart installs, hooks included, parsed. */
export async function renderChart(options: RenderOptions = {}): Promise<KubernetesObject[]> {
  const text = await helm(['template', RELEASE, CHART_DIR, '--namespace', 'signals', ...valueArgs(options)])
  const objects: KubernetesObject[] = []
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) throw new HelmError(`rendered YAML does not parse: ${document.errors[0]?.message}`)
    const value = document.toJS() as KubernetesObject | null
    if (value !== null) objects.push(value)
  }
  return objects
}

/** Every object's schema problems, as `Kind name: path: problem`. */
export async function schemaProblems(objects: readonly KubernetesObject[]): Promise<string[]> {
  const problems: string[] = []
  for (const object of objects) {
    for (const problem of await kubernetesProblems(object)) problems.push(`${object.kind} ${object.metadata?.name ?? '(unnamed)'}: ${problem}`)
  }
  return problems
}
