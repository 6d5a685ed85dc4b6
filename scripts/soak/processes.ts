import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { stopChild } from '@signals/test-support'

/** One platform service the soak runs as a process of its own, so its memory is its own. */
export interface ServiceProcess {
  name: string
  url: string
  child: ChildProcess
  /** The last lines it wrote to stderr (shown when it dies). */
  stderr: string[]
}

/** Extra Node.js flags for every service (SOAK_NODE_OPTIONS, e.g. `--heapsnapshot-signal=SIGUSR2`). */
const nodeFlags = (process.env.SOAK_NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean)

export function startService(root: string, name: string, entry: string, port: number, env: NodeJS.ProcessEnv): ServiceProcess {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', path.join(root, entry)], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] })
  const service: ServiceProcess = { name, url: `http://127.0.0.1:${port}`, child, stderr: [] }
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (chunk: string) => {
    service.stderr.push(...chunk.split('\n').filter(Boolean))
    service.stderr.splice(0, Math.max(0, service.stderr.length - 20))
  })
  return service
}

/** Waits for `GET /health` to answer 200; throws with the service's last words if it exits first. */
export async function waitHealthy(service: ServiceProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new Error(`${service.name} exited (${service.child.exitCode}): ${service.stderr.join('\n')}`)
    const ok = await fetch(`${service.url}/health`).then((response) => response.ok, () => false)
    if (ok) return
    await sleep(250)
  }
  throw new Error(`${service.name} not healthy after ${timeoutMs} ms: ${service.stderr.join('\n')}`)
}

/** Resident set size in MiB, from /proc (Linux), or null when the process is gone. */
export function residentMiB(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kib === undefined ? null : Number(kib) / 1024
  } catch {
    return null
  }
}

/** SIGTERM (each service's graceful close), then SIGKILL after `graceMs`. */
export async function stopServices(services: ServiceProcess[], graceMs = 15_000): Promise<void> {
  await Promise.all(services.map((service) => stopChild(service.child, { graceMs })))
}
