/**
 * Liveness by identity (docs/design.md §11): a pid names a process only together with
 * the moment that process started, since pids are recycled. A holder records both when it takes
 * a lock; it is alive while a process with that pid exists, is not a zombie (killed, not yet
 * reaped by its parent: it will never write again) and, where a start time was recorded, started
 * at that time.
 *
 * Linux: `/proc/PID/stat`, field 3 (state) and field 22 (start time in clock ticks since boot).
 * Elsewhere `kill(pid, 0)` is the best the platform offers without spawning a program per check,
 * and no start time is recorded (so none is compared).
 */
import { readFileSync } from 'node:fs';
import { errno } from '../util/errno.js';

interface ProcStat {
  state: string;
  start: string;
}

/** Fields 3 and 22 of `/proc/PID/stat`; undefined when there is no such process (or no /proc). */
function procStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Field 2 is the command in parentheses, which may itself hold spaces and parentheses: the
  // fields that follow start after the last `)`.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const start = fields[19];
  return state && start ? { state, start } : undefined;
}

const hasProc = process.platform === 'linux';

/** This process's start time as the platform records it (Linux: clock ticks since boot), if it does. */
export function processStart(pid = process.pid): string | undefined {
  return hasProc ? procStat(pid)?.start : undefined;
}

/**
 * True when `pid` names a live process on this host: it exists (EPERM counts: alive, someone
 * else's), is not a zombie, and, when `start` is given, started at `start` (a pid reused by
 * another process is not the holder). Without `start` (an owner recorded by an older build), the
 * number alone decides, as it used to.
 */
export function isAlive(pid: number, start?: string, since?: Date): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (hasProc) {
    const stat = procStat(pid);
    if (stat !== undefined) {
      if (stat.state === 'Z' || stat.state === 'X') return false;
      if (start !== undefined) return stat.start === start;
      // An owner recorded by an older build (no start time): a process that started after the
      // lock was taken (or last renewed) cannot be its holder: its pid was reused.
      return since === undefined || !startedAfter(stat.start, since);
    }
    // No entry: gone, or hidden from us (/proc mounted hidepid): kill() tells those apart.
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errno(err) === 'EPERM';
  }
}

/** Clock ticks per second of /proc's start times (USER_HZ: 100 on every Linux that matters). */
const TICKS = 100;

/** When this host booted (ms since the epoch), from /proc/stat; undefined when unknown. */
function bootTime(): number | undefined {
  try {
    const line = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    return line ? Number(line[1]) * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** True when a process with /proc start time `start` began after `at` (beyond a second's rounding). */
function startedAfter(start: string, at: Date): boolean {
  const boot = bootTime();
  if (boot === undefined || Number.isNaN(at.getTime())) return false;
  return boot + (Number(start) / TICKS) * 1000 > at.getTime() + 2_000;
}
