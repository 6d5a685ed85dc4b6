import t from 'tap'
import { readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ConfigError, loadConfig, type TObject } from '@signals/config'
import { connectBus } from '@signals/bus'
import { Streams } from '@signals/contracts'
import { eventually, startPrivateNats, freePort, testNamespace } from '@signals/test-support'
import { ConfigSchema as AdminConfig } from '../../services/admin/src/config.ts'
import { ConfigSchema as AuthConfig } from '../../services/auth/src/config.ts'
import { ConfigSchema as ConnectorConfig } from '../../services/broker-connector/src/config.ts'
import { ConfigSchema as GatewayConfig } from '../../services/gateway/src/config.ts'
import { ConfigSchema as IngestConfig } from '../../services/ingest/src/config.ts'
import { ConfigSchema as SettingsConfig } from '../../services/settings/src/config.ts'
import { EXAMPLE_VALUES, HelmError, lintChart, renderChart, schemaProblems, type KubernetesObject } from '../helm-check/chart.ts'
import { kubernetesProblems } from '../helm-check/kubernetes-schema.ts'

// Issue 21 item 7: the Helm chart renders (helm template, the real binary) and every object it installs
// is valid against the Kubernetes schemas in strict mode; then what the chart must hold, object by object.
// Its environment is checked against each service's own configuration schema in production.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const SERVICES = readdirSync(path.join(root, 'services'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
const SCHEMAS: Record<string, TObject> = {
  admin: AdminConfig,
  auth: AuthConfig,
  'broker-connector': ConnectorConfig,
  gateway: GatewayConfig,
  ingest: IngestConfig,
  settings: SettingsConfig,
}
/** What an operator puts in the Secret (every key any object reads). */
const SECRET: Record<string, string> = {
  DATABASE_URL: 'postgres://signals:pg-pass@postgres.internal:5432/signals',
  REDIS_URL: 'redis://signals:redis-pass@redis.internal:6379',
  SESSION_SECRET: 's'.repeat(48),
  INTERNAL_AUTH_SECRET: 'i'.repeat(48),
  CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64'),
  OIDC_CLIENT_SECRET: 'a-real-google-client-secret',
  WEBHOOK_SECRET: 'a-long-webhook-secret',
  NATS_PASSWORD: 'a-long-nats-password',
}

interface EnvVar {
  name: string
  value?: string
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean }; fieldRef?: { fieldPath: string } }
}
interface Container {
  name: string
  image: string
  command?: string[]
  args?: string[]
  env?: EnvVar[]
  envFrom?: { configMapRef?: { name: string } }[]
  ports?: { name: string; containerPort: number }[]
  livenessProbe?: { httpGet?: { path: string; port: string } }
  readinessProbe?: { httpGet?: { path: string; port: string } }
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> }
}
interface Workload extends KubernetesObject {
  spec: { replicas?: number; template: { metadata: { annotations?: Record<string, string> }; spec: { containers: Container[] } }; selector?: { matchLabels: Record<string, string> } }
}

/** The rendered object of that kind and name, seen as the shape the test reads. */
function find<T = KubernetesObject>(objects: readonly KubernetesObject[], kind: string, name: string): T | undefined {
  return objects.find((object) => object.kind === kind && object.metadata.name === name) as T | undefined
}
const workload = (objects: readonly KubernetesObject[], kind: string, name: string) => find<Workload>(objects, kind, name)
/** A rendered ConfigMap's data. */
const configData = (objects: readonly KubernetesObject[], name: string) => find<{ data: Record<string, string> }>(objects, 'ConfigMap', name)?.data ?? {}

/** A pod's environment as the container sees it: its ConfigMaps, then its own entries (secrets filled in). */
function environmentOf(objects: readonly KubernetesObject[], container: Container): Record<string, string> {
  const env: Record<string, string> = {}
  for (const source of container.envFrom ?? []) {
    Object.assign(env, configData(objects, source.configMapRef?.name ?? ''))
  }
  for (const entry of container.env ?? []) {
    const secret = entry.valueFrom?.secretKeyRef
    if (entry.value !== undefined) env[entry.name] = entry.value
    else if (secret && SECRET[secret.key] !== undefined) env[entry.name] = SECRET[secret.key] as string
  }
  return env
}

const objects = renderChart({ valuesFiles: [EXAMPLE_VALUES] })

t.test('helm lint --strict passes and every rendered object is valid against the Kubernetes schemas (strict)', async (t) => {
  await lintChart({ valuesFiles: [EXAMPLE_VALUES] })
  const rendered = await objects
  t.ok(rendered.length >= 25, `${rendered.length} objects rendered`)
  t.same(await schemaProblems(rendered), [], 'no schema problem')
  // Another shape of the same chart: webhooks on the gateway's host, no NetworkPolicies, NATS without users.
  const variant = await renderChart({ valuesFiles: [EXAMPLE_VALUES], set: ['ingress.ingestHost=', 'networkPolicy.enabled=false', 'nats.auth.enabled=false', 'ingress.tlsSecretName='] })
  t.same(await schemaProblems(variant), [], 'the variant is valid too')
  t.notOk(variant.some((object) => object.kind === 'NetworkPolicy'), 'networkPolicy.enabled=false drops them')
})

t.test('the strict validation refuses what kubeconform -strict refuses', async (t) => {
  const gateway = structuredClone(workload(await objects, 'Deployment', 'signals-gateway')) as Workload
  t.same(await kubernetesProblems(gateway), [])
  const container = gateway.spec.template.spec.containers[0] as Container & Record<string, unknown>
  container.livenessProbe = { httpGet: { path: '/health', port: 'http', porte: 3000 } as never }
  container.resources = { limits: { memory: 'a lot' } }
  t.match(await kubernetesProblems(gateway), [/resources\/limits\/memory: must be number|quantity/], 'a quantity that is not one')
  container.resources = { limits: { memory: '160Mi' } }
  t.same(await kubernetesProblems(gateway), ['/spec/template/spec/containers/0/livenessProbe/httpGet/porte: is not a field of the schema (strict mode refuses unknown fields)'], 'an unknown field')
  t.match(await kubernetesProblems({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: {} }), [/required property 'selector'|selector/], 'a missing required field')
  t.match(await kubernetesProblems({ apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', metadata: { name: 'x' } }), [/policy\/v1beta1 is not a stable API version/], 'a beta API (this one removed in Kubernetes 1.25)')
  t.match(await kubernetesProblems({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor' }), [/no schema/], 'a kind that is not built in')
})

t.test('rendering without the REQUIRED values stops and names them', async (t) => {
  const error = await renderChart().catch((caught: unknown) => caught)
  t.ok(error instanceof HelmError)
  t.match(String(error), /config\.publicUrl is required/)
})

t.test('every service: replicas, probes on /health and /ready, resources, its command, a Service', async (t) => {
  const rendered = await objects
  t.same(SERVICES.sort(), Object.keys(SCHEMAS).sort(), 'the chart knows every service folder')
  for (const name of SERVICES) {
    const deployment = workload(rendered, 'Deployment', `signals-${name}`)
    t.ok(deployment, `${name}: a Deployment`)
    t.ok((deployment?.spec.replicas ?? 0) >= 2, `${name}: at least two replicas`)
    const container = deployment?.spec.template.spec.containers[0]
    t.same(container?.command, ['node', `services/${name}/dist/main.js`], `${name}: its command from the values`)
    t.equal(container?.image, 'registry.example.com/signals:1.0.0', `${name}: the one image`)
    t.same(container?.livenessProbe?.httpGet, { path: '/health', port: 'http' }, `${name}: liveness on /health`)
    t.same(container?.readinessProbe?.httpGet, { path: '/ready', port: 'http' }, `${name}: readiness on /ready`)
    t.ok(container?.resources?.requests?.memory && container.resources.limits?.memory === '160Mi', `${name}: memory requested and limited`)
    t.ok(deployment?.spec.template.metadata.annotations?.['checksum/config'], `${name}: rolls when the ConfigMap changes`)
    const service = find<{ spec: { selector: Record<string, string> } }>(rendered, 'Service', `signals-${name}`)
    t.same(service?.spec.selector, deployment?.spec.selector?.matchLabels, `${name}: its Service selects its pods`)
  }
  for (const name of ['gateway', 'ingest', 'broker-connector']) {
    const pdb = find<{ spec: { minAvailable?: number } }>(rendered, 'PodDisruptionBudget', `signals-${name}`)
    t.equal(pdb?.spec.minAvailable, 1, `${name}: a PodDisruptionBudget`)
  }
})

t.test("each service's environment passes its own production checks, and secrets come only from the Secret", async (t) => {
  const rendered = await objects
  const configMap = configData(rendered, 'signals-config')
  t.ok(configMap.PUBLIC_URL, 'the ConfigMap is there')
  for (const key of Object.keys(SECRET)) t.notOk(key in configMap, `${key} is not in the ConfigMap`)
  for (const name of SERVICES) {
    const container = workload(rendered, 'Deployment', `signals-${name}`)?.spec.template.spec.containers[0] as Container
    for (const entry of container.env ?? []) {
      if (entry.name in SECRET) t.equal(entry.valueFrom?.secretKeyRef?.name, 'signals-secrets', `${name}: ${entry.name} from the Secret`)
    }
    const env = environmentOf(rendered, container)
    t.equal(env.NODE_ENV, 'production')
    let problem = ''
    try {
      loadConfig(SCHEMAS[name] as TObject, env)
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      problem = error.message
    }
    t.equal(problem, '', `${name}: its configuration loads in production (listening on 0.0.0.0:${env[Object.keys(env).find((key) => key.endsWith('_PORT')) ?? ''] ?? '?'})`)
  }
})

t.test('ingress: the gateway at its host, ingest at its own; migrations as a Job once per release', async (t) => {
  const rendered = await objects
  const ingress = find<{ spec: { rules: { host: string; http: { paths: { path: string; backend: { service: { name: string } } }[] } }[]; tls: { hosts: string[] }[] } }>(rendered, 'Ingress', 'signals')
  const routes = (ingress?.spec.rules ?? []).flatMap((rule) => rule.http.paths.map((route) => `${rule.host}${route.path} -> ${route.backend.service.name}`))
  t.same(routes, ['signals.example.com/ -> signals-gateway', 'hooks.signals.example.com/webhook -> signals-ingest'])
  t.same(ingress?.spec.tls[0]?.hosts, ['signals.example.com', 'hooks.signals.example.com'])

  const job = workload(rendered, 'Job', 'signals-migrate')
  t.equal(job?.metadata.annotations?.['helm.sh/hook'], 'pre-install,pre-upgrade', 'before install and every upgrade')
  const container = job?.spec.template.spec.containers[0]
  t.same(container?.command, ['node', 'packages/db/dist/migrate-cli.js'])
  t.same(container?.env?.find((entry) => entry.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef, { name: 'signals-secrets', key: 'DATABASE_URL' })
  t.notOk(container?.envFrom, 'it reads no ConfigMap (a pre-install hook runs before the ConfigMap exists)')
})

t.test('NATS: three JetStream nodes of one cluster, 2.10 or later, each named after its pod', async (t) => {
  const rendered = await objects
  const statefulSet = find<Workload & { spec: { serviceName: string } }>(rendered, 'StatefulSet', 'signals-nats') as Workload & { spec: { serviceName: string } }
  t.equal(statefulSet.spec.replicas, 3)
  const container = statefulSet.spec.template.spec.containers[0] as Container
  const [major, minor] = (container.image.split(':')[1] ?? '').split('.').map(Number)
  t.ok((major ?? 0) > 2 || ((major ?? 0) === 2 && (minor ?? 0) >= 10), `${container.image} is 2.10 or later`)
  t.same(container.env?.find((entry) => entry.name === 'POD_NAME')?.valueFrom, { fieldRef: { fieldPath: 'metadata.name' } })
  const headless = find<{ spec: { clusterIP: string; publishNotReadyAddresses: boolean } }>(rendered, 'Service', statefulSet.spec.serviceName)
  t.equal(headless?.spec.clusterIP, 'None')
  t.equal(headless?.spec.publishNotReadyAddresses, true, 'nodes find each other before they are ready')

  const conf = configData(rendered, 'signals-nats-config')['nats.conf'] ?? ''
  t.match(conf, /server_name: \$POD_NAME/)
  t.match(conf, /jetstream \{[^}]*store_dir: "\/data"/)
  const routes = [...conf.matchAll(/"nats:\/\/(signals-nats-\d)\.signals-nats-headless:6222"/g)].map((match) => match[1])
  t.same(routes, ['signals-nats-0', 'signals-nats-1', 'signals-nats-2'], 'routes to every node')
  const configMap = configData(rendered, 'signals-config')
  t.equal(configMap.NATS_URL, 'nats://signals-nats-0.signals-nats-headless:4222,nats://signals-nats-1.signals-nats-headless:4222,nats://signals-nats-2.signals-nats-headless:4222')
  t.equal(configMap.BUS_REPLICAS, '3')
})

t.test("three nats-servers run the chart's own configuration: one JetStream cluster, the services' user logs in and stores on three replicas, nobody else gets in", async (t) => {
  // The local server is 2.9, which does not know sync_interval (2.10): rendered without it. What is the
  // test's own: each node's ports, pid file and store folder (the server refuses a store folder given
  // twice), and the routes, which name the pods' DNS names in the chart and 127.0.0.1 ports here.
  const rendered = await renderChart({ valuesFiles: [EXAMPLE_VALUES], set: ['nats.jetstream.syncInterval='] })
  const conf = configData(rendered, 'signals-nats-config')['nats.conf'] ?? ''
  t.match(conf, /store_dir: "\/data"\n/)
  const routePorts = [await freePort(), await freePort(), await freePort()]
  const local = conf
    .replace(/store_dir: "\/data"\n/, '')
    .replace(/"nats:\/\/signals-nats-(\d)\.signals-nats-headless:6222"/g, (_route, node: string) => `"nats://127.0.0.1:${routePorts[Number(node)]}"`)
  const nodes = await Promise.all(
    routePorts.map(async (routePort, node) =>
      startPrivateNats({
        config: local,
        env: { POD_NAME: `signals-nats-${node}`, NATS_PASSWORD: SECRET.NATS_PASSWORD as string },
        args: ['-m', String(await freePort()), '--cluster', `nats://127.0.0.1:${routePort}`, '-P', path.join(tmpdir(), `chart-nats-${process.pid}-${node}.pid`)],
      }),
    ),
  )
  t.teardown(() => Promise.all(nodes.map((node) => node.destroy())))
  const urls = nodes.map((node) => node.url).join(',')

  // Streams are created only once the cluster has elected its JetStream leader: retried until then.
  const namespace = testNamespace()
  let bus: Awaited<ReturnType<typeof connectBus>> | undefined
  await eventually(
    async () => {
      bus = await connectBus({ url: urls, credentials: { user: 'signals', password: SECRET.NATS_PASSWORD }, name: 'chart-test', namespace, replicas: 3 }).catch(() => undefined)
      return bus !== undefined
    },
    { timeoutMs: 60_000, intervalMs: 500, what: 'the services\' user to create its streams on the three nodes' },
  )
  t.teardown(() => bus?.close())
  const info = await bus?.jsm.streams.info(bus.stream(Streams.alerts.name))
  t.equal(info?.config.num_replicas, 3, 'ALERTS on three replicas')
  t.equal((info?.cluster?.replicas?.length ?? 0) + 1, 3, 'a leader and two replicas')
  t.same(
    [info?.cluster?.leader, ...(info?.cluster?.replicas ?? []).map((replica) => replica.name)].sort(),
    ['signals-nats-0', 'signals-nats-1', 'signals-nats-2'],
    'each node named after its pod',
  )

  const refused = await connectBus({ url: urls, name: 'chart-test', ensureTopology: false, connectTimeoutMs: 2_000 }).then(
    async (connected) => {
      await connected.close()
      return false
    },
    () => true,
  )
  t.ok(refused, 'no credentials: refused')
})
