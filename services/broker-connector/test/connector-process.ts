import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { eventually } from './helper.ts'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** The connector as operators run it: its own process, from main.ts, with these variables over the test's. */
// Its stderr comes through a pipe of this test's, never the runner's own descriptor: a connector outliving a
// killed test must not hold the runner's output open (CI would wait on it for ever).
export function spawnConnector(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/broker-connector/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  child.stderr?.pipe(process.stderr)
  return child
}

/** Resolves once the process has exited (at once if it already has). */
export const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()))

/** Waits until the connector on this port answers /ready (its bus consumers and feeds started). */
export async function waitReady(port: number): Promise<void> {
  await eventually(async () => (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined))?.status === 200, 30_000)
}
