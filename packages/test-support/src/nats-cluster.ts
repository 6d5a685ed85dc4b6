import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort, stopChild, waitForPort } from './private-servers.ts'
import { eventually } from './polling.ts'

const NATS_SERVER = '/usr/sbin/nats-server'

export interface ClusterNode {
  name: string
  port: number
  url: string
  /** The HTTP monitoring port (`/jsz`, `/healthz`). */
  monitorPort: number
  /** Stops the node with SIGTERM (it can be started again on the same ports and data). */
  stop(): Promise<void>
  /** Ends the node at once with SIGKILL, as a crash would. */
  kill(): Promise<void>
  /** Starts the node again and waits until it has rejoined and sees a JetStream meta leader. */
  start(): Promise<void>
}

export interface PrivateNatsCluster {
  nodes: ClusterNode[]
  /** Every node's client URL, comma-separated, as NATS_URL takes them. */
  urls: string
  /** Resolves once every running node reports the same JetStream meta leader. */
  waitForMetaLeader(timeoutMs?: number): Promise<void>
  /** Stops every node for good and removes the data. */
  destroy(): Promise<void>
}

interface NodePorts {
  name: string
  port: number
  monitorPort: number
  routePort: number
}

function configOf(node: NodePorts, all: NodePorts[], storeDir: string): string {
  const routes = all.filter((other) => other !== node).map((other) => `nats-route://127.0.0.1:${other.routePort}`)
  return [
    `server_name: ${node.name}`,
    `listen: 127.0.0.1:${node.port}`,
    `http: 127.0.0.1:${node.monitorPort}`,
    `jetstream { store_dir: "${storeDir}" }`,
    `cluster { name: test-cluster, listen: 127.0.0.1:${node.routePort}, routes: [${routes.join(', ')}] }`,
  ].join('\n')
}

const isRunning = (child: ChildProcess | undefined) => child !== undefined && child.exitCode === null && child.signalCode === null

/** The meta leader a node reports on `/jsz`, or undefined while there is none (or it does not answer). */
async function metaLeaderOf(monitorPort: number): Promise<string | undefined> {
  const response = await fetch(`http://127.0.0.1:${monitorPort}/jsz`).catch(() => undefined)
  if (!response?.ok) return undefined
  const body = (await response.json()) as { meta_cluster?: { leader?: string } }
  return body.meta_cluster?.leader || undefined
}

/**
 * A JetStream cluster of private `nats-server` processes on spare ports (client, route and monitoring),
 * each with its own store directory and a config file in a temp directory. Resolves once a meta leader is
 * elected, so R3 streams can be created at once.
 */
export async function startPrivateNatsCluster(size = 3): Promise<PrivateNatsCluster> {
  const root = await mkdtemp(path.join(tmpdir(), 'nats-cluster-'))
  const ports: NodePorts[] = []
  for (let i = 1; i <= size; i++) {
    ports.push({ name: `n${i}`, port: await freePort(), monitorPort: await freePort(), routePort: await freePort() })
  }
  const running = new Map<string, ChildProcess>()
  const cluster: PrivateNatsCluster = {
    nodes: [],
    urls: ports.map((node) => `nats://127.0.0.1:${node.port}`).join(','),
    async waitForMetaLeader(timeoutMs = 60_000) {
      await eventually(
        async () => {
          const alive = ports.filter((node) => isRunning(running.get(node.name)))
          const leaders = await Promise.all(alive.map((node) => metaLeaderOf(node.monitorPort)))
          return leaders.length > 0 && leaders.every((leader) => leader !== undefined && leader === leaders[0])
        },
        { timeoutMs, intervalMs: 200, what: 'a JetStream meta leader on every running node' },
      )
    },
    async destroy() {
      await Promise.all([...running.values()].map((child) => stopChild(child)))
      await rm(root, { recursive: true, force: true })
    },
  }
  for (const node of ports) {
    const dir = path.join(root, node.name)
    await mkdir(dir)
    const configFile = path.join(dir, 'nats.conf')
    await writeFile(configFile, configOf(node, ports, path.join(dir, 'store')))
    const launch = async () => {
      running.set(node.name, spawn(NATS_SERVER, ['-c', configFile], { stdio: 'ignore' }))
      await waitForPort(node.port)
    }
    cluster.nodes.push({
      name: node.name,
      port: node.port,
      url: `nats://127.0.0.1:${node.port}`,
      monitorPort: node.monitorPort,
      stop: () => stopChild(running.get(node.name)),
      async kill() {
        const child = running.get(node.name)
        if (!child || !isRunning(child)) return
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve())
          child.kill('SIGKILL')
        })
      },
      async start() {
        await launch()
        await cluster.waitForMetaLeader()
      },
    })
    await launch()
  }
  await cluster.waitForMetaLeader()
  return cluster
}
