import { hostname } from 'node:os';
import { mkdir, readFile, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LockOwner } from './errors.js';
import { SessionInUseError } from './errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { errno } from './ids.js';
import { layout } from './layout.js';

/** `lock.owner.json`: the holder, plus the inode of the lock directory it describes. */
interface OwnerRecord extends LockOwner {
  lockIno: number;
}

/** What a session's lock looks like from outside. */
export type LockState =
  | { state: 'free' }
  | { state: 'held'; owner: LockOwner | undefined }
  | { state: 'dead'; owner: LockOwner | undefined; sameHost: boolean };

/** A lock this process holds. */
export interface HeldLock {
  readonly owner: LockOwner;
  /** Removes the owner file, then the lock. */
  release(): Promise<void>;
}

export interface LockOptions {
  staleMs: number;
  /** Called (never throwing) when proper-lockfile finds the lock lost. */
  onCompromised(err: Error): void;
  now(): Date;
}

const HOST = hostname();
/** The takeover guard is held for milliseconds; one older than this was left by a crash. */
const GUARD_STALE_MS = 5_000;

/** True when `pid` names a live process on this host (EPERM: alive, but someone else's). */
export function isPidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errno(err) === 'EPERM';
  }
}

/** Reads who holds a session's lock and whether they are still alive; takes nothing. */
export async function inspectLock(sessionDir: string, staleMs: number): Promise<LockState> {
  let lockStat;
  try {
    lockStat = await stat(layout.lock(sessionDir));
  } catch (err) {
    if (errno(err) === 'ENOENT') return { state: 'free' };
    throw err;
  }
  const record = await readOwner(sessionDir);
  // The owner file describes this lock only if it names this lock directory's inode.
  const owner = record && record.lockIno === lockStat.ino ? ownerOf(record) : undefined;
  const stale = lockStat.mtimeMs < Date.now() - staleMs;
  if (owner && owner.host === HOST) {
    return isPidAlive(owner.pid) ? { state: 'held', owner } : { state: 'dead', owner, sameHost: true };
  }
  return stale ? { state: 'dead', owner, sameHost: false } : { state: 'held', owner };
}

/**
 * Takes a session's cross-process lock (DESIGN §4). A live holder → `SessionInUseError` with
 * its owner; a holder whose pid is dead on this host is taken over at once. Every acquisition
 * and takeover runs under a short exclusive `mkdir` guard, so racing processes see each other's
 * owner file and exactly one wins.
 */
export async function acquireLock(id: string, sessionDir: string, options: LockOptions): Promise<HeldLock> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await withGuard(sessionDir, () => tryAcquire(sessionDir, options));
    if ('release' in outcome) return outcome;
    // No owner file yet: its holder is between taking the lock and recording itself.
    if (outcome.owner === undefined && attempt < 40) {
      await sleep(25);
      continue;
    }
    throw new SessionInUseError(id, outcome.owner);
  }
}

async function tryAcquire(sessionDir: string, options: LockOptions): Promise<HeldLock | { owner: LockOwner | undefined }> {
  try {
    return await lockNow(sessionDir, options);
  } catch (err) {
    if (errno(err) !== 'ELOCKED') throw err;
  }
  const state = await inspectLock(sessionDir, options.staleMs);
  if (state.state === 'dead' && state.sameHost) {
    // Move the dead lock aside (its owner file first, so nobody trusts it again), then lock.
    await unlink(layout.lockOwner(sessionDir)).catch(() => undefined);
    const aside = `${layout.lock(sessionDir)}.dead-${randomBytes(4).toString('hex')}`;
    await rename(layout.lock(sessionDir), aside);
    await rm(aside, { recursive: true, force: true });
    return lockNow(sessionDir, options);
  }
  // Free again (released meanwhile) or held by someone unknown: the caller retries.
  return { owner: state.state === 'free' ? undefined : state.owner };
}

async function lockNow(sessionDir: string, options: LockOptions): Promise<HeldLock> {
  const lockfile = await import('proper-lockfile');
  const lockPath = layout.lock(sessionDir);
  const release = await lockfile.lock(sessionDir, {
    lockfilePath: lockPath,
    realpath: false,
    stale: options.staleMs,
    retries: 0,
    onCompromised: (err) => {
      try {
        options.onCompromised(err);
      } catch {
        // proper-lockfile calls this from a timer: a throw here would kill the process.
      }
    },
  });
  const owner: LockOwner = { pid: process.pid, host: HOST, startedAt: options.now().toISOString() };
  try {
    const { ino } = await stat(lockPath);
    const record: OwnerRecord = { ...owner, lockIno: ino };
    await writeFileAtomic(layout.lockOwner(sessionDir), `${JSON.stringify(record)}\n`);
  } catch (err) {
    await release().catch(() => undefined);
    throw err;
  }
  return {
    owner,
    async release() {
      await unlink(layout.lockOwner(sessionDir)).catch(() => undefined);
      await release();
    },
  };
}

/** Runs `fn` holding `lock.takeover` (an exclusive mkdir), breaking a guard left by a crash. */
async function withGuard<T>(sessionDir: string, fn: () => Promise<T>): Promise<T> {
  const guard = layout.takeoverGuard(sessionDir);
  for (;;) {
    try {
      await mkdir(guard);
      break;
    } catch (err) {
      if (errno(err) !== 'EEXIST') throw err;
      const since = await stat(guard).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (since > GUARD_STALE_MS) await rmdir(guard).catch(() => undefined);
      else await sleep(10);
    }
  }
  try {
    return await fn();
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
}

async function readOwner(sessionDir: string): Promise<OwnerRecord | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(layout.lockOwner(sessionDir), 'utf8'));
    const r = value as Partial<OwnerRecord>;
    if (typeof r.pid === 'number' && typeof r.host === 'string' && typeof r.startedAt === 'string' && typeof r.lockIno === 'number') {
      return r as OwnerRecord;
    }
  } catch {
    // missing or half-written: unknown owner
  }
  return undefined;
}

function ownerOf(record: OwnerRecord): LockOwner {
  return { pid: record.pid, host: record.host, startedAt: record.startedAt };
}
