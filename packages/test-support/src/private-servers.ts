import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, connect as netConnect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'

/** A free TCP port on 127.0.0.1, chosen by the kernel. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

export async function waitForPort(port: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = netConnect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`port ${port} did not open within ${timeoutMs} ms`)
}

export interface PrivateServer {
  port: number
  url: string
  /** Stops the server (it can be started again on the same port and data). */
  stop(): Promise<void>
  start(): Promise<void>
  /** Stops it for good and removes its data. */
  destroy(): Promise<void>
}

export interface StopChildOptions {
  /** Asks the child to end; SIGTERM unless given (e.g. an IPC 'stop'). */
  ask?: (child: ChildProcess) => void
  /** How long it may take before SIGKILL. */
  graceMs?: number
}

/** Asks a child process to end and waits for it, SIGKILLing it after the grace period. */
export function stopChild(child: ChildProcess | undefined, { ask = (running) => running.kill('SIGTERM'), graceMs = 5_000 }: StopChildOptions = {}): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs)
    child.once('exit', () => {
      clearTimeout(kill)
      resolve()
    })
    ask(child)
  })
}

export interface PrivateNatsOptions {
  /** A nats-server configuration (users, accounts); address, port, JetStream and store are given on the command line. */
  config?: string
  /** The server's environment: its configuration may read `$NAME` from it (as the Helm chart's does). */
  env?: Record<string, string>
  /** More command-line options (they override the configuration's: `-m <port>`, `--cluster <url>`). */
  args?: readonly string[]
}

/** A nats-server with JetStream of the test's own, on a spare port, that the test may stop and restart. */
export async function startPrivateNats(options: PrivateNatsOptions = {}): Promise<PrivateServer> {
  const port = await freePort()
  const storeDir = await mkdtemp(path.join(tmpdir(), 'nats-test-'))
  const configArgs: string[] = []
  if (options.config !== undefined) {
    const configFile = path.join(storeDir, 'server.conf')
    await writeFile(configFile, options.config)
    configArgs.push('-c', configFile)
  }
  let child: ChildProcess | undefined
  const server: PrivateServer = {
    port,
    url: `nats://127.0.0.1:${port}`,
    async start() {
      child = spawn('nats-server', [...configArgs, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir, ...(options.args ?? [])], {
        stdio: 'ignore',
        env: { ...process.env, ...options.env },
      })
      await waitForPort(port)
    },
    stop: () => stopChild(child),
    async destroy() {
      await stopChild(child)
      await rm(storeDir, { recursive: true, force: true })
    },
  }
  await server.start()
  return server
}

/**
 * A redis-server of the test's own, on a spare port, keeping nothing on disk. `extraArgs` are more
 * configuration directives (`--user name on >password ~* +@all` for an ACL user).
 */
export async function startPrivateRedis(extraArgs: readonly string[] = []): Promise<PrivateServer> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const server: PrivateServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', ...extraArgs], {
        stdio: 'ignore',
      })
      await waitForPort(port)
    },
    stop: () => stopChild(child),
    async destroy() {
      await stopChild(child)
    },
  }
  await server.start()
  return server
}

function postgresBinDir(): string {
  const versions = execFileSync('ls', ['/usr/lib/postgresql']).toString().trim().split('\n').sort()
  const latest = versions.at(-1)
  if (!latest) throw new Error('no PostgreSQL installation under /usr/lib/postgresql')
  return `/usr/lib/postgresql/${latest}/bin`
}

/**
 * A Postgres cluster of the test's own (initdb + pg_ctl) on a spare port, trust auth, database `postgres`.
 * Runs as the current user; under root it runs as the `postgres` system user, as initdb requires.
 */
export async function startPrivatePostgres(): Promise<PrivateServer> {
  const port = await freePort()
  const bin = postgresBinDir()
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pg-test-'))
  const asPostgres = process.getuid?.() === 0
  const run = (command: string, args: string[]) => {
    if (asPostgres) execFileSync('chown', ['-R', 'postgres:postgres', dataDir])
    const [file, fullArgs] = asPostgres ? ['runuser', ['-u', 'postgres', '--', `${bin}/${command}`, ...args]] : [`${bin}/${command}`, args]
    execFileSync(file as string, fullArgs as string[], { stdio: 'ignore' })
  }
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8'])
  const server: PrivateServer = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}`,
    async start() {
      run('pg_ctl', ['-D', dataDir, '-o', `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1 -c fsync=off`, '-w', 'start', '-l', `${dataDir}/log`])
      await waitForPort(port)
    },
    async stop() {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop'])
    },
    async destroy() {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'])
      } catch {
        // already stopped
      }
      await rm(dataDir, { recursive: true, force: true })
    },
  }
  await server.start()
  return server
}
