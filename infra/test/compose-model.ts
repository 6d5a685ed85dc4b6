import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseDocument, type Document } from 'yaml'

export interface ComposeService {
  image?: string
  build?: { context: string; dockerfile: string; target?: string; args?: Record<string, string> }
  command?: string[]
  deploy?: { resources?: { limits?: { cpus?: string; memory?: string } } }
  profiles?: string[]
  healthcheck?: { test: string[] }
  environment?: Record<string, string>
  depends_on?: Record<string, { condition: string }>
  ports?: string[]
  volumes?: string[]
  networks?: { default?: { ipv4_address?: string } }
}

export interface ComposeFile {
  services: Record<string, ComposeService>
  volumes?: Record<string, unknown>
  [extension: `x-${string}`]: unknown
}

function parseCompose(root: string, file: string): { document: Document; model: ComposeFile } {
  const document = parseDocument(readFileSync(path.join(root, file), 'utf8'), { merge: true })
  if (document.errors.length) throw new Error(`${file}: ${document.errors.map(String).join('; ')}`)
  return { document, model: document.toJS() as ComposeFile }
}

const mountPoint = (volume: string) => volume.split(':')[1] ?? volume

/** Compose's merge of one override service over a base one (the parts this project uses). */
function mergeService(base: ComposeService, override: ComposeService, resetPorts: boolean): ComposeService {
  const volumes = new Map((base.volumes ?? []).map((volume) => [mountPoint(volume), volume]))
  for (const volume of override.volumes ?? []) volumes.set(mountPoint(volume), volume)
  return {
    ...base,
    ...override,
    environment: { ...base.environment, ...override.environment },
    depends_on: { ...base.depends_on, ...override.depends_on },
    ports: resetPorts ? (override.ports ?? []) : [...(base.ports ?? []), ...(override.ports ?? [])],
    volumes: [...volumes.values()],
  }
}

/**
 * The services `docker compose -f <files...> --profile <profiles...> up` starts, after merging the
 * override files (maps merged, ports appended unless `!reset`, volumes replaced by mount point, other
 * keys replaced) and dropping services whose profiles are not enabled.
 */
export function composeModel(root: string, files: string[], profiles: string[] = []): ComposeFile {
  const [first, ...overrides] = files
  const merged = parseCompose(root, first as string).model
  for (const file of overrides) {
    const { document, model } = parseCompose(root, file)
    for (const [name, service] of Object.entries(model.services)) {
      const resetPorts = (document.getIn(['services', name, 'ports'], true) as { tag?: string } | undefined)?.tag === '!reset'
      merged.services[name] = merged.services[name] ? mergeService(merged.services[name], service, resetPorts) : service
    }
    merged.volumes = { ...merged.volumes, ...model.volumes }
  }
  const enabled = (service: ComposeService) => !service.profiles?.length || service.profiles.some((profile) => profiles.includes(profile))
  merged.services = Object.fromEntries(Object.entries(merged.services).filter(([, service]) => enabled(service)))
  return merged
}
