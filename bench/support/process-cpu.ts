import { readFileSync } from 'node:fs'

/** Clock ticks a second of /proc's CPU times (USER_HZ: 100 on Linux on every architecture Node runs on). */
const TICKS_PER_SECOND = 100

/** CPU time (user + system) a process has used so far, from /proc/<pid>/stat (Linux), in milliseconds. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name (which may hold blanks, inside parentheses): utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
}
