import t from 'tap'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { composeModel, type ComposeService } from './compose-model.ts'

// Docker is not available on CI machines: this checks the compose file's shape instead of running it.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>
}

t.test('the compose file parses and names every service in services/', async (t) => {
  const folders = readdirSync(path.join(root, 'services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
  t.ok(folders.length >= 6)
  for (const folder of folders) {
    const service = compose.services[folder]
    t.ok(service, `${folder} is in docker-compose.yml`)
    t.same(service?.command, ['node', `services/${folder}/dist/main.js`], `${folder} runs its compiled entry point`)
    t.ok(existsSync(path.join(root, 'services', folder, 'src', 'main.ts')), `${folder} has src/main.ts`)
  }
})

t.test('Postgres, Redis and NATS (JetStream on) are included, and every container has a health check', async (t) => {
  t.match(compose.services.postgres?.image, /^postgres:15/)
  t.match(compose.services.redis?.image, /^redis:7/)
  t.match(compose.services.nats?.image, /^nats:2\.(1\d|[2-9]\d)/, 'NATS 2.10 or later (2.9 is out of support)')
  t.ok((compose.services.nats as { command?: string[] }).command?.includes('-js'), 'JetStream is enabled')
  for (const [name, service] of Object.entries(compose.services)) {
    if (name === 'migrate' || name === 'dev-secrets') continue // one-shot jobs
    t.ok(service.healthcheck?.test?.length, `${name} has a health check`)
  }
})

t.test('every build uses a Dockerfile under infra/ that exists, and every command a compiled entry point', async (t) => {
  for (const [name, service] of Object.entries(compose.services)) {
    if (!service.build) continue
    t.match(service.build.dockerfile, /^infra\//, `${name} builds from infra/`)
    t.ok(existsSync(path.join(root, service.build.dockerfile)), `${service.build.dockerfile} exists`)
    const [program, entry = ''] = service.command ?? []
    t.equal(program, 'node', `${name} runs plain node (no tsx)`)
    t.match(entry, /^(services|packages|dev)\/[a-z-]+\/dist\/[a-z-]+\.js$/, `${name} runs a file from dist/`)
    const source = entry.replace('/dist/', '/src/').replace(/\.js$/, '.ts')
    t.ok(existsSync(path.join(root, source)), `${name}: ${source} exists (pnpm build compiles it to ${entry})`)
  }
})

t.test('one production image for the platform, one development image for the dev parts, each built once', async (t) => {
  const images = new Map<string, Set<string>>()
  for (const [name, service] of Object.entries(composeModel(root, ['docker-compose.yml'], ['cluster']).services)) {
    if (!service.build) continue
    t.ok(service.image, `${name} names the image it builds`)
    const builds = images.get(service.image ?? '') ?? new Set<string>()
    builds.add(JSON.stringify(service.build))
    images.set(service.image ?? '', builds)
  }
  t.same([...images.keys()].sort(), ['signals-platform-dev:local', 'signals-platform:local'])
  for (const [image, builds] of images) t.equal(builds.size, 1, `every service naming ${image} builds it the same way`)
  for (const folder of ['gateway', 'auth', 'settings', 'admin', 'ingest', 'broker-connector', 'migrate']) {
    const service = compose.services[folder]
    t.equal(service?.image, 'signals-platform:local', `${folder} runs the production image`)
    t.equal(service?.build?.target, 'runtime', `${folder}: its runtime stage (no dev dependencies)`)
  }
})

t.test('every long-running container has CPU and memory limits', async (t) => {
  for (const [name, service] of Object.entries(composeModel(root, ['docker-compose.yml'], ['cluster']).services)) {
    if (['migrate', 'dev-secrets', 'ingest-balancer'].includes(name)) continue
    const limits = service.deploy?.resources?.limits
    t.ok(limits?.cpus && limits.memory, `${name} is limited (${JSON.stringify(limits)})`)
  }
})

t.test('services wait for their dependencies and the migration', async (t) => {
  for (const name of ['auth', 'settings', 'admin', 'broker-connector', 'gateway']) {
    t.equal(compose.services[name]?.depends_on?.migrate?.condition, 'service_completed_successfully', `${name} waits for migrate`)
  }
})

t.test('only the gateway and ingest are published, and only on 127.0.0.1 (issue 15 point 4)', async (t) => {
  const published = Object.entries(compose.services).filter(([, service]) => (service as { ports?: string[] }).ports?.length)
  t.same(published.map(([name]) => name).sort(), ['gateway', 'ingest'])
  for (const [name, service] of published) {
    for (const port of (service as { ports: string[] }).ports) t.match(port, /^127\.0\.0\.1:\d+:\d+$/, `${name} publishes ${port} on loopback only`)
  }
})

t.test('development secrets are generated at first start, never committed (issue 15 point 4)', async (t) => {
  const { Env } = await import('@signals/config')
  const secrets = Object.entries(Env).filter(([, schema]) => (schema as unknown as Record<string, unknown>)['x-secret'] === true)
  const devValues = secrets.map(([, schema]) => String((schema as unknown as Record<string, unknown>)['x-dev-default']))
  const text = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')
  for (const value of devValues) t.notMatch(text, value, 'no development default is written in the compose file')
  const generator = compose.services['dev-secrets'] as ComposeService & { command?: string[]; volumes?: string[] }
  t.ok(generator, 'a one-shot service generates the secrets')
  for (const name of ['gateway', 'auth', 'settings', 'admin', 'ingest', 'ingest-2', 'broker-connector', 'broker-connector-2', 'oidc']) {
    const service = compose.services[name] as ComposeService & { volumes?: string[] }
    for (const [variable] of secrets) {
      const file = service.environment?.[`${variable}_FILE`]
      t.ok(file?.startsWith('/run/signals-secrets/'), `${name} reads ${variable} from a generated file`)
      t.match(generator.command?.join(' '), path.basename(file ?? 'none'), `${variable}'s file is generated`)
    }
    t.ok(service.volumes?.some((volume) => volume.startsWith('dev-secrets:/run/signals-secrets') && volume.endsWith(':ro')), `${name} mounts the secrets read-only`)
    t.equal(service.depends_on?.['dev-secrets']?.condition, 'service_completed_successfully', `${name} waits for the secrets`)
  }
})

t.test('auth believes forwarding headers from the gateway container alone (issue 15 point 6)', async (t) => {
  const gateway = compose.services.gateway as ComposeService & { networks?: { default?: { ipv4_address?: string } } }
  const address = gateway.networks?.default?.ipv4_address
  t.ok(address, 'the gateway has a fixed address')
  t.equal(compose.services.auth?.environment?.AUTH_TRUSTED_PROXY, address)
})

// ---- The cluster profile (issue 14 point 4): docker-compose.yml + infra/compose.cluster.yml --profile cluster.
const CLUSTER_FILES = ['docker-compose.yml', 'infra/compose.cluster.yml']
const defaultPlatform = composeModel(root, ['docker-compose.yml'])
const cluster = composeModel(root, CLUSTER_FILES, ['cluster'])
const NATS_NODES = ['nats', 'nats-2', 'nats-3']
const ONE_SHOT = new Set(['migrate', 'dev-secrets'])
/** The services/ folder a compose service runs (its command names services/<folder>/dist/main.js). */
const serviceFolder = (service: ComposeService) => /^services\/([a-z-]+)\/dist\/main\.js$/.exec(service.command?.[1] ?? '')?.[1]
const servicesBuilding = (model: typeof cluster, folder: string) => Object.entries(model.services).filter(([, service]) => serviceFolder(service) === folder)

t.test('the default platform (no profile): one NATS node (2.10 or later), one ingest, one connector', async (t) => {
  t.same(Object.keys(defaultPlatform.services).sort(), ['admin', 'auth', 'broker-connector', 'dev-secrets', 'gateway', 'ingest', 'migrate', 'nats', 'oidc', 'paper-broker', 'postgres', 'redis', 'settings'])
  t.match(defaultPlatform.services.nats?.image, /^nats:2\.10/)
  t.same(defaultPlatform.services.nats?.command, ['-js', '-sd', '/data', '-m', '8222'])
  t.equal(defaultPlatform.services.gateway?.environment?.NATS_URL, 'nats://nats:4222')
  t.equal(defaultPlatform.services.gateway?.environment?.INGEST_URL, 'http://ingest:3001')
  t.notOk(defaultPlatform.services.gateway?.environment?.BUS_REPLICAS, 'no replica count: the bus default (1)')
})

t.test('every service of either set-up can start: an image or a build, dependencies in the same set, health checks', async (t) => {
  for (const [label, model] of [['default', defaultPlatform], ['cluster', cluster]] as const) {
    for (const [name, service] of Object.entries(model.services)) {
      t.ok(service.image || service.build, `${label}: ${name} has an image or a build`)
      for (const dependency of Object.keys(service.depends_on ?? {})) t.ok(model.services[dependency], `${label}: ${name} depends on ${dependency}, which runs in this set-up`)
      if (!ONE_SHOT.has(name)) t.ok(service.healthcheck?.test?.length, `${label}: ${name} has a health check`)
    }
  }
})

t.test('the cluster: three NATS >= 2.10 nodes with JetStream, fsync before every ack, routes naming all three', async (t) => {
  const config = readFileSync(path.join(root, 'infra/nats/cluster.conf'), 'utf8')
  const jetstream = /jetstream\s*\{([^}]*)\}/.exec(config)?.[1] ?? ''
  t.match(jetstream, /^\s*store_dir:\s*\/data\s*$/m, 'JetStream is enabled with a store on the node volume')
  t.match(jetstream, /^\s*sync_interval:\s*always\s*$/m, 'sync_interval: always')
  const clusterBlock = /cluster\s*\{([\s\S]*?)\n\}/.exec(config)?.[1] ?? ''
  t.match(clusterBlock, /^\s*name:\s*\S+/m, 'the cluster has a name')
  const routes = [...clusterBlock.matchAll(/nats-route:\/\/([a-z0-9-]+):6222/g)].map((match) => match[1])
  t.same(routes, NATS_NODES, 'three routes, one per node')
  t.match(config, /^http_port:\s*8222$/m, 'monitoring on the port the health checks read')
  const names = new Set<string>()
  for (const node of NATS_NODES) {
    const service = cluster.services[node]
    const [major = 0, minor = 0] = (/^nats:(\d+)\.(\d+)/.exec(service?.image ?? '') ?? []).slice(1).map(Number)
    t.ok(major > 2 || (major === 2 && minor >= 10), `${node} runs NATS 2.10 or later (${service?.image})`)
    t.same(service?.command, ['-c', '/etc/nats/cluster.conf'], `${node} runs the cluster configuration`)
    t.ok(service?.volumes?.includes('./infra/nats/cluster.conf:/etc/nats/cluster.conf:ro'), `${node} mounts it`)
    const dataVolume = service?.volumes?.find((volume) => volume.endsWith(':/data'))?.split(':')[0] ?? ''
    t.ok(dataVolume && dataVolume !== 'nats-data' && (cluster.volumes ?? {})[dataVolume] !== undefined, `${node} keeps its store in a declared volume of its own (${dataVolume})`)
    t.match(service?.healthcheck?.test?.join(' '), /127\.0\.0\.1:8222\/healthz/, `${node} health is read from monitoring`)
    names.add(service?.environment?.NATS_SERVER_NAME ?? '')
  }
  t.same([...names].sort(), NATS_NODES, 'each node has its own server name')
})

t.test('the cluster: every bus user lists the three servers, three replicas, and waits for the nodes', async (t) => {
  const busUsers = Object.entries(cluster.services).filter(([, service]) => ['gateway', 'settings', 'ingest', 'broker-connector'].includes(serviceFolder(service) ?? ''))
  t.equal(busUsers.length, 6, 'gateway, settings, two ingest, two connectors')
  for (const [name, service] of busUsers) {
    const servers = (service.environment?.NATS_URL ?? '').split(',').map((server) => new URL(server).hostname)
    t.same(servers, NATS_NODES, `${name}: NATS_URL lists the three nodes`)
    t.equal(service.environment?.BUS_REPLICAS, '3', `${name}: BUS_REPLICAS=3`)
    for (const node of NATS_NODES) t.equal(service.depends_on?.[node]?.condition, 'service_healthy', `${name} waits for ${node}`)
  }
})

t.test('the cluster: two ingest instances behind one address, two connectors', async (t) => {
  const ingests = servicesBuilding(cluster, 'ingest').map(([name]) => name)
  const connectors = servicesBuilding(cluster, 'broker-connector').map(([name]) => name)
  t.equal(ingests.length, 2, 'two ingest instances')
  t.equal(connectors.length, 2, 'two broker connectors')
  const balancer = cluster.services['ingest-balancer']
  t.match(balancer?.image, /^nginx:/)
  const config = readFileSync(path.join(root, 'infra/ingest-balancer/nginx.conf'), 'utf8')
  t.ok(balancer?.volumes?.includes('./infra/ingest-balancer/nginx.conf:/etc/nginx/nginx.conf:ro'), 'the balancer runs its configuration')
  const upstream = /upstream ingest\s*\{([^}]*)\}/.exec(config)?.[1] ?? ''
  t.same([...upstream.matchAll(/server ([a-z0-9-]+):3001/g)].map((match) => match[1]).sort(), ingests.sort(), 'the balancer sends to both instances')
  t.match(config, /proxy_next_upstream [^;]*http_503/, 'a closing instance hands the webhook to the other')
  t.equal(cluster.services.gateway?.environment?.INGEST_URL, 'http://ingest-balancer:3001', "the gateway's /webhook proxy goes through the balancer")
  t.equal(cluster.services.admin?.environment?.INGEST_URL, 'http://ingest-balancer:3001', "the admin's replays go through the balancer")
  for (const name of ingests) {
    t.equal(cluster.services[name]?.environment?.INGEST_TRUSTED_PROXY, balancer?.networks?.default?.ipv4_address, `${name} believes X-Forwarded-For from the balancer alone`)
  }
})

t.test('the cluster publishes the gateway and the ingest address only, on 127.0.0.1', async (t) => {
  const published = Object.entries(cluster.services).filter(([, service]) => service.ports?.length)
  t.same(published.map(([name]) => name).sort(), ['gateway', 'ingest-balancer'])
  t.same(cluster.services['ingest-balancer']?.ports, ['127.0.0.1:3001:3001'], 'webhooks keep their port')
  t.same(cluster.services.gateway?.ports, ['127.0.0.1:3000:3000'])
})

t.test('every variable a platform service is given is one its configuration (or the shared block) knows', async (t) => {
  const schemas = new Map<string, Set<string>>()
  for (const folder of ['gateway', 'auth', 'settings', 'admin', 'ingest', 'broker-connector']) {
    const { ConfigSchema } = (await import(`../../services/${folder}/src/config.ts`)) as { ConfigSchema: { properties: Record<string, unknown> } }
    schemas.set(folder, new Set(Object.keys(ConfigSchema.properties)))
  }
  const knownToAny = (variable: string) => [...schemas.values()].some((known) => known.has(variable))
  const base = (variable: string) => variable.replace(/_FILE$/, '')
  // The block every service gets (docker-compose.yml `x-service`): each name in it is some service's.
  const shared = new Set(Object.keys((compose as unknown as { 'x-service': ComposeService })['x-service'].environment ?? {}))
  for (const variable of shared) t.ok(knownToAny(base(variable)), `shared ${variable} is read by some service`)
  for (const [label, model] of [['default', defaultPlatform], ['cluster', cluster]] as const) {
    for (const [name, service] of Object.entries(model.services)) {
      const folder = serviceFolder(service)
      const known = folder ? schemas.get(folder) : undefined
      if (!known) continue
      for (const variable of Object.keys(service.environment ?? {})) {
        const ok = known.has(base(variable)) || shared.has(variable)
        t.ok(ok, `${label}: ${name} sets ${variable}, which ${folder}'s configuration reads`)
      }
    }
  }
})

t.test('the image: built in stages on Node 24, production dependencies only, compiled, unprivileged (issue 21)', async (t) => {
  const dockerfile = readFileSync(path.join(root, 'infra/Dockerfile'), 'utf8')
  const stages = [...dockerfile.matchAll(/^FROM (\S+)(?: AS (\S+))?$/gm)].map((match) => ({ image: match[1], name: match[2] }))
  t.same(stages.map((stage) => stage.name), ['build', 'dev', 'runtime'], 'build, dev, then the runtime (the default target) last')
  for (const stage of stages.filter((stage) => stage.name !== 'dev')) t.match(stage.image, /^node:24-slim$/, `${stage.name} is on node:24-slim`)
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'))
  t.match(dockerfile, /pnpm install --prod --frozen-lockfile/, 'the runtime tree gets production dependencies only')
  t.match(runtime, /COPY --from=build \/out \/app/, 'the runtime copies only the assembled tree')
  t.match(runtime, /NODE_OPTIONS=--conditions=compiled/, 'packages resolve to dist/')
  t.match(runtime, /GLIBC_TUNABLES=glibc\.malloc\.mmap_threshold=16384/, 'malloc returns what start-up parsing freed (docs/decisions/memory.md)')
  t.match(runtime, /^USER node$/m, 'runs as node')
  t.notMatch(runtime, /tsx/, 'no tsx at run time')
})
