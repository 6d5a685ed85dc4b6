import t from 'tap'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

// Docker is not available on CI machines: this checks the compose file's shape instead of running it.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

interface ComposeService {
  image?: string
  build?: { context: string; dockerfile: string; args?: Record<string, string> }
  healthcheck?: { test: string[] }
  environment?: Record<string, string>
  depends_on?: Record<string, { condition: string }>
}

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
    t.equal(service?.build?.args?.SERVICE, folder, `${folder} builds its own entry point`)
    t.ok(existsSync(path.join(root, 'services', folder, 'src', 'main.ts')), `${folder} has src/main.ts`)
  }
})

t.test('Postgres, Redis and NATS (JetStream on) are included, and every container has a health check', async (t) => {
  t.match(compose.services.postgres?.image, /^postgres:15/)
  t.match(compose.services.redis?.image, /^redis:7/)
  t.match(compose.services.nats?.image, /^nats:2\.9/)
  t.ok((compose.services.nats as { command?: string[] }).command?.includes('-js'), 'JetStream is enabled')
  for (const [name, service] of Object.entries(compose.services)) {
    if (name === 'migrate' || name === 'dev-secrets') continue // one-shot jobs
    t.ok(service.healthcheck?.test?.length, `${name} has a health check`)
  }
})

t.test('every build uses a Dockerfile under infra/ that exists', async (t) => {
  for (const [name, service] of Object.entries(compose.services)) {
    if (!service.build) continue
    t.match(service.build.dockerfile, /^infra\//, `${name} builds from infra/`)
    t.ok(existsSync(path.join(root, service.build.dockerfile)), `${service.build.dockerfile} exists`)
    const kind = service.build.args?.KIND ?? 'services'
    const entry = path.join(root, kind, service.build.args?.SERVICE ?? '', 'src', kind === 'packages' ? 'migrate-cli.ts' : 'main.ts')
    t.ok(existsSync(entry) || kind === 'dev', `${name}: ${path.relative(root, entry)} exists`)
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
  for (const name of ['gateway', 'auth', 'settings', 'admin', 'ingest', 'broker-connector', 'oidc']) {
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
