// CPU time spent by the processes of a measurement, from /proc (Linux): a replica, the PostgreSQL
// cluster behind it (the postmaster and every backend), and the bench's own process (the load
// generator runs in it). Taken before and after a load, the differences per request are the
// per-payment CPU costs the scaling model of docs/postgres.md ("How it scales") is computed from.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'

/** Clock ticks per second of /proc's times (getconf CLK_TCK; 100 on every Linux this runs on). */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100

interface ProcStat {
  ppid: number
  /** utime + stime of the process (all its threads), in ms. */
  ownMs: number
  /** cutime + cstime: its children that exited and were waited for, in ms. */
  childrenMs: number
}

/** /proc/<pid>/stat; undefined once the process is gone. */
function procStat(pid: number): ProcStat | undefined {
  let text: string
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // The command name may hold spaces and parentheses: the fields start after its last ')'.
  // From there: state(3) ppid(4) … utime(14) stime(15) cutime(16) cstime(17).
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const ticks = (field: number) => Number(fields[field - 3])
  const ms = (t: number) => (t * 1000) / TICKS_PER_SECOND
  return { ppid: ticks(4), ownMs: ms(ticks(14) + ticks(15)), childrenMs: ms(ticks(16) + ticks(17)) }
}

/** CPU ms used so far by the process `pid` (all its threads). */
export function processCpuMs(pid: number): number {
  const stat = procStat(pid)
  if (!stat) throw new Error(`process ${pid} is gone: no CPU time to read`)
  return stat.ownMs
}

/**
 * CPU ms used so far by a PostgreSQL cluster: its postmaster, the backends and helpers it runs
 * now, and those that have exited (counted in the postmaster's children's times once reaped).
 */
export function clusterCpuMs(postmasterPid: number): number {
  const postmaster = procStat(postmasterPid)
  if (!postmaster) throw new Error(`the postmaster ${postmasterPid} is gone`)
  let total = postmaster.ownMs + postmaster.childrenMs
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = procStat(Number(entry))
    if (stat?.ppid === postmasterPid) total += stat.ownMs
  }
  return total
}

/** The postmaster of the cluster a backend (pg_backend_pid()) belongs to: the backend's parent. */
export function postmasterOf(backendPid: number): number {
  const stat = procStat(backendPid)
  if (!stat) throw new Error(`backend ${backendPid} is not a process on this machine: the cluster must run here`)
  return stat.ppid
}

/** CPU ms used so far by this process (the load generator). */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** Every thread of `pid` allowed on `cpu` only (`taskset -a -p -c`, util-linux). */
export function pinToCpu(pid: number, cpu: number): void {
  execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' })
}
