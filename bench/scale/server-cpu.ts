/**
 * CPU time spent by a PostgreSQL server on this machine, every process of it: the postmaster's
 * own and what it reaped of children that ended (a connection closed), plus each live child's.
 * The server's CPU per append, unlike its wall time, barely moves with what else the machine runs,
 * so the writers' rows give it beside the floor's (docs/internals.md, "Scale").
 *
 * A live process's time is read in nanoseconds (`/proc/PID/schedstat`), not in clock ticks
 * (`/proc/PID/stat`): `stat` truncates each process's total to a tick (10 ms), and the floor's
 * 200 backends, opened together, each run ~4 ms a round, so their totals crossed a tick together
 * or not at all and the floor read 0–3 µs an append in one round, 220 in the next
 * (docs/internals.md, "The server's CPU an append, read in nanoseconds").
 */
import { readFileSync, readdirSync } from 'node:fs';

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // ended between listing and reading, or not Linux
  }
}

/** Fields of /proc/PID/stat after the command's name: [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime. */
function stat(pid: string | number): string[] | undefined {
  const text = read(`/proc/${pid}/stat`);
  return text?.slice(text.lastIndexOf(') ') + 2).split(' ');
}

/** Clock ticks per second of /proc (USER_HZ: 100 on every Linux that Node runs on). */
const TICKS_PER_SECOND = 100;

/** A live process's CPU so far, in ms: its schedstat's time on a CPU (ns), or its ticks where the kernel keeps no schedstat. */
function liveMs(pid: string, fields: readonly string[]): number {
  const ns = Number(read(`/proc/${pid}/schedstat`)?.split(' ')[0]);
  return Number.isFinite(ns) ? ns / 1e6 : ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * The server's CPU so far, in ms, given any of its child processes' pid (a backend's,
 * `pg_backend_pid()`); NaN off Linux. Children reaped during a measurement count in ticks
 * (the kernel keeps no finer sum of them): the writers' rounds open and close no connection.
 */
export function serverCpuMs(childPid: number): number {
  const postmaster = stat(childPid)?.[1];
  const own = postmaster === undefined ? undefined : stat(postmaster);
  if (postmaster === undefined || !own) return Number.NaN;
  let ms = liveMs(postmaster, own) + ((Number(own[13]) + Number(own[14])) * 1000) / TICKS_PER_SECOND;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const child = stat(pid);
    if (child?.[1] === postmaster) ms += liveMs(pid, child);
  }
  return ms;
}
