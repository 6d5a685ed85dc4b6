import { readFileSync } from 'node:fs'

/** A process's resident memory from /proc/<pid>/status (Linux), in MiB. */
export interface ResidentMemory {
  /** VmRSS: every page the process has in memory. */
  resident: number
  /** RssAnon: its own memory (V8's heap, malloc, stacks). */
  anonymous: number
  /** RssFile: pages of mapped files, mostly the node binary's code, shared with every other node process. */
  file: number
  /** Pss (smaps_rollup): resident memory with each shared page divided among the processes that map it. */
  proportional: number
}

const MIB = 1024

export function residentMemory(pid: number): ResidentMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => {
    const kib = new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1]
    if (kib === undefined) throw new Error(`/proc/${pid}/status has no ${name}`)
    return Number(kib) / MIB
  }
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
  const pss = /^Pss:\s+(\d+) kB$/m.exec(rollup)?.[1]
  if (pss === undefined) throw new Error(`/proc/${pid}/smaps_rollup has no Pss`)
  return { resident: field('VmRSS'), anonymous: field('RssAnon'), file: field('RssFile'), proportional: Number(pss) / MIB }
}
