import { hostname } from 'node:os';
import { basename, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { LockOwner } from '../../session/api/errors.js';
import type { LockState, WriterLock } from '../../session/format/store.js';
import { LockSupersededError } from '../../session/api/errors.js';
import { sessionInUse } from '../../session/api/in-use.js';
import { errno } from '../../util/errno.js';
import { GuardBusyError, withGuard } from './guard.js';
import { isAlive, processStart } from '../process-identity.js';
import { detachJournal, nextEpoch, writeWhole } from './fence.js';
import { layout } from './layout.js';

/**
 * `lock.owner.json`: the holder, plus the inode of the lock directory it describes. Builds before
 * fencing and liveness by identity wrote neither `procStart` nor `epoch`: such a holder is judged by its pid alone.
 */
interface OwnerRecord extends LockOwner {
  lockIno: number;
  /** The holder process's start time (`process-identity.ts`): its pid names it only with this. */
  procStart?: string;
  /** The fencing token of this taking (`epoch` beside it holds the last one issued). */
  epoch?: number;
}

export type { LockState };

/** A lock this process holds, and the fence its session's writes go through. */
export interface HeldLock extends WriterLock {
  readonly epoch: number;
  /** Throws `LockSupersededError` unless the owner file still names this taking (a cheap read, no guard). */
  assertCurrent(): void;
  /** Runs `fn` under the takeover guard once the owner file is checked to name this taking: no takeover can come between. */
  fence<T>(fn: () => Promise<T>): Promise<T>;
}

export interface LockOptions {
  staleMs: number;
  /** Called (never throwing) when proper-lockfile finds the lock lost. */
  onCompromised(err: Error): void;
  now(): Date;
}

const HOST = hostname();

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
    return isAlive(owner.pid, record?.procStart, new Date(owner.startedAt)) ? { state: 'held', owner } : { state: 'dead', owner, sameHost: true };
  }
  return stale ? { state: 'dead', owner, sameHost: false } : { state: 'held', owner };
}

/**
 * Takes a session's cross-process lock (docs/design.md §11). A live holder → `SessionInUseError` with
 * its owner. On this host a holder is judged by its identity (pid and start time, not a zombie):
 * alive, it keeps the lock however old the lock looks; gone, it is taken over at once. A holder on another host is taken over
 * once its heartbeat is older than `staleMs`.
 *
 * Every acquisition, takeover and release runs under a short exclusive `mkdir` guard
 * (`lock.takeover`), so under the guard a lock always has its owner file: a lock without one
 * was left by a process that died while taking it, and is taken over too. Of processes racing
 * for one session exactly one wins; the others learn the winner.
 */
export async function acquireLock(id: string, sessionDir: string, options: LockOptions): Promise<HeldLock> {
  let outcome: Awaited<ReturnType<typeof tryAcquire>>;
  try {
    outcome = await withGuard(layout.takeoverGuard(sessionDir), () => tryAcquire(sessionDir, options));
  } catch (err) {
    if (err instanceof GuardBusyError) throw sessionInUse(id, undefined);
    throw err;
  }
  if ('release' in outcome) return outcome;
  throw sessionInUse(id, outcome.owner, options.now());
}

async function tryAcquire(sessionDir: string, options: LockOptions): Promise<HeldLock | { owner: LockOwner | undefined }> {
  // Judged by us before proper-lockfile sees it: proper-lockfile would take over any lock whose
  // mtime is stale, also one whose holder lives on this host (frozen, or blocked for a while).
  const state = await inspectLock(sessionDir, options.staleMs);
  if (state.state === 'free') return lockNow(sessionDir, options);
  const orphaned = state.owner === undefined;
  // Our own pid, but no lock of this process keeps it any more (it was given up as compromised).
  const abandoned = state.owner?.pid === process.pid && state.owner.host === HOST && !keptHere.has(resolve(sessionDir));
  if (state.state === 'dead' || orphaned || abandoned) {
    // Move the dead lock aside (its owner file first, so nobody trusts it again), then lock.
    await unlink(layout.lockOwner(sessionDir)).catch(() => undefined);
    // A holder that is only presumed dead (stale, on another host; or unknown) may be frozen, not
    // dead: whatever it still writes through its open journal must not land in the session.
    if (!(state.state === 'dead' && state.sameHost)) await detachJournal(sessionDir);
    const aside = `${layout.lock(sessionDir)}.dead-${randomBytes(4).toString('hex')}`;
    await rename(layout.lock(sessionDir), aside).catch((err: unknown) => {
      if (errno(err) !== 'ENOENT') throw err;
    });
    await rm(aside, { recursive: true, force: true });
    return lockNow(sessionDir, options);
  }
  return { owner: state.owner };
}

/** Session directories whose lock this process holds, neither released nor compromised. */
const keptHere = new Set<string>();

type Lockfile = typeof import('proper-lockfile');
let lockfileModule: Lockfile | undefined;
/**
 * proper-lockfile, loaded by the first lock taken. A CommonJS package, so it is required: an
 * `import()` of it has Node's ES loader read and lex its source for named exports first, on top
 * of the CommonJS loader that then loads it anyway (4–8 ms of a start's CPU, docs/internals.md).
 * In the CLI's bundle (CommonJS, where `require` is its own) the package is bundled and compiled
 * with the bundle's code cache (scripts/bundle.mjs, `BUNDLED_DEPENDENCIES`): from node_modules,
 * its ten files cost a start ~10 ms of CPU more.
 */
function loadLockfile(): Lockfile {
  lockfileModule ??= (typeof require === 'function' ? require('proper-lockfile') : createRequire(import.meta.url)('proper-lockfile')) as Lockfile;
  return lockfileModule;
}

async function lockNow(sessionDir: string, options: LockOptions): Promise<HeldLock> {
  const lockfile = loadLockfile();
  const lockPath = layout.lock(sessionDir);
  const key = resolve(sessionDir);
  let kept = true;
  const letGo = (): void => {
    kept = false;
    keptHere.delete(key);
  };
  const release = await lockfile.lock(sessionDir, {
    lockfilePath: lockPath,
    realpath: false,
    stale: options.staleMs,
    retries: 0,
    onCompromised: (err) => {
      letGo();
      try {
        options.onCompromised(err);
      } catch {
        // proper-lockfile calls this from a timer: a throw here would kill the process.
      }
    },
  });
  const owner: LockOwner = { pid: process.pid, host: HOST, startedAt: options.now().toISOString() };
  let epoch: number;
  try {
    // Under the takeover guard (tryAcquire's caller): no other taking reads the counter meanwhile.
    epoch = await nextEpoch(sessionDir, async () => (await readOwner(sessionDir))?.epoch);
    const { ino } = await stat(lockPath);
    const procStart = processStart();
    const record: OwnerRecord = { ...owner, lockIno: ino, epoch, ...(procStart !== undefined ? { procStart } : {}) };
    // Advisory, and meaningless after a power cut (the lock with it): no fsync needed.
    await writeOwner(sessionDir, record);
  } catch (err) {
    await unlink(layout.lockOwner(sessionDir)).catch(() => undefined);
    await release().catch(() => undefined);
    throw err;
  }
  keptHere.add(key);
  // When the owner file last named us. A takeover starts by removing it (under the guard), and
  // needs the heartbeat to have stopped for staleMs: this process frozen or blocked that long,
  // which leaves a gap as long between two writes. So a check less than staleMs/2 old still
  // holds; only a takeover racing the very check made just after such a freeze gets past it.
  let verifiedAt = Date.now();
  const ours = (record: OwnerRecord | undefined): boolean =>
    record?.pid === owner.pid && record.host === owner.host && record.startedAt === owner.startedAt && record.epoch === epoch;
  const assertCurrent = (): void => {
    if (!kept || !ours(parseOwner(() => readFileSync(layout.lockOwner(sessionDir), 'utf8')))) throw new LockSupersededError(basename(sessionDir), epoch);
  };
  return {
    owner,
    epoch,
    async stillHeld() {
      if (!kept) return false;
      if (Date.now() - verifiedAt < options.staleMs / 2) return true;
      const current = ours(await readOwner(sessionDir));
      if (current) verifiedAt = Date.now();
      return current;
    },
    assertCurrent,
    fence: (fn) =>
      withGuard(layout.takeoverGuard(sessionDir), () => {
        assertCurrent();
        return fn();
      }),
    release: () =>
      withGuard(layout.takeoverGuard(sessionDir), async () => {
        letGo();
        await unlink(layout.lockOwner(sessionDir)).catch(() => undefined);
        await release();
      }),
  };
}

function writeOwner(sessionDir: string, record: OwnerRecord): Promise<void> {
  return writeWhole(layout.lockOwner(sessionDir), `${JSON.stringify(record)}\n`);
}

async function readOwner(sessionDir: string): Promise<OwnerRecord | undefined> {
  const text = await readFile(layout.lockOwner(sessionDir), 'utf8').catch(() => '');
  return parseOwner(() => text);
}

function parseOwner(read: () => string): OwnerRecord | undefined {
  try {
    const r = JSON.parse(read()) as Partial<OwnerRecord> | null;
    if (r && typeof r.pid === 'number' && typeof r.host === 'string' && typeof r.startedAt === 'string' && typeof r.lockIno === 'number') {
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
