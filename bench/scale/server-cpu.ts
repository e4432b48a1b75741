/**
 * CPU time spent by a PostgreSQL server on this machine, every process of it: the postmaster's
 * own and what it reaped of children that ended (a connection closed), plus each live child's.
 * The server's CPU per append, unlike its wall time, barely moves with what else the machine runs,
 * so the writers' rows give it beside the floor's (docs/internals.md, "Scale").
 */
import { readFileSync, readdirSync } from 'node:fs';

/** Fields of /proc/PID/stat after the command's name: [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime. */
function stat(pid: string | number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(') ') + 2).split(' ');
  } catch {
    return undefined; // ended between listing and reading, or not Linux
  }
}

/** Clock ticks per second of /proc (USER_HZ: 100 on every Linux that Node runs on). */
const TICKS_PER_SECOND = 100;

/** The server's CPU so far, in ms, given any of its child processes' pid (a backend's, `pg_backend_pid()`); NaN off Linux. */
export function serverCpuMs(childPid: number): number {
  const postmaster = stat(childPid)?.[1];
  const own = postmaster === undefined ? undefined : stat(postmaster);
  if (postmaster === undefined || !own) return Number.NaN;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const child = stat(pid);
    if (child?.[1] === postmaster) ticks += Number(child[11]) + Number(child[12]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
