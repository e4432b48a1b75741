import { hostname } from 'node:os';
import { mkdirSync, renameSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GuardBusyError } from '../../session/api/errors.js';
import { errno } from '../../util/errno.js';
import { isAlive, processStart } from '../process-identity.js';

const HOST = hostname();
/** Who holds a guard: pid, host and (where the platform records it) the process's start time. */
const HOLDER = [process.pid, HOST, processStart()].filter((part) => part !== undefined).join(' ');
/** A guard is held for milliseconds: one without a readable holder and older than this was left by a crash. */
const ANONYMOUS_STALE_MS = 5_000;
/** The break guard is held for microseconds; past this it was left by a crash too. */
const BREAK_STALE_MS = 10_000;

/**
 * Runs `fn` holding `path`, an exclusive directory guard with the holder's pid inside. A guard
 * whose holder died on this host is broken at once; one with no readable holder, after 5 s.
 * Breaking is itself serialised (`<path>.break`) and re-checks the very directory it judged
 * stale, so two processes cannot both break a guard and then both hold it.
 */
export async function withGuard<T>(path: string, fn: () => Promise<T>, waitMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      claim(path);
      break;
    } catch (err) {
      if (errno(err) !== 'EEXIST' && errno(err) !== 'ENOTEMPTY') throw err;
      const judged = await judge(path);
      if (judged.stale) await breakGuard(path, judged.ino);
      else if (Date.now() - started > waitMs) throw new GuardBusyError(judged.pid);
      else await sleep(5 + Math.random() * 10);
    }
  }
  try {
    return await fn();
  } finally {
    letGo(path);
  }
}

/**
 * Moves the guard away whole, then removes it: a kill in between leaves a `.gone-` directory
 * nobody waits on, never a guard whose holder file is already gone (broken only after 5 s).
 * Synchronous, as `claim` is: three metadata calls of microseconds each, where the thread
 * pool's round trips (rm's lstat, rmdir, readdir, unlink, rmdir) cost milliseconds on a busy
 * machine, at every snapshot, lock release and index update.
 */
function letGo(path: string): void {
  const gone = `${path}.gone-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, gone);
  } catch {
    return; // gone already (broken as stale, or moved with its directory)
  }
  try {
    unlinkSync(join(gone, 'holder'));
    rmdirSync(gone);
  } catch {
    // Something else inside: removed whole (a `.gone-` leftover is harmless).
    try {
      rmSync(gone, { recursive: true, force: true });
    } catch {
      // left for nobody
    }
  }
}

/**
 * Creates the guard with its holder file already inside: a temp directory renamed into place,
 * which fails while another guard (never empty) exists. So no kill can leave a guard that does
 * not name its holder, which others could only break after 5 s.
 */
function claim(path: string): void {
  const tmp = `${path}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  mkdirSync(tmp);
  try {
    writeFileSync(join(tmp, 'holder'), `${HOLDER}\n`);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

async function judge(path: string): Promise<{ stale: boolean; ino?: number; pid?: number }> {
  let st;
  try {
    st = await stat(path);
  } catch {
    return { stale: false }; // gone meanwhile: try mkdir again
  }
  const holder = await readFile(join(path, 'holder'), 'utf8').catch(() => '');
  const [pidText, host, start] = holder.trim().split(' ');
  const pid = Number(pidText);
  if (holder && host === HOST && Number.isInteger(pid)) return { stale: !isAlive(pid, start, st.mtime), ino: st.ino, pid };
  return { stale: Date.now() - st.mtimeMs > ANONYMOUS_STALE_MS, ino: st.ino };
}

async function breakGuard(path: string, ino: number | undefined): Promise<void> {
  const breaker = `${path}.break`;
  try {
    await mkdir(breaker);
  } catch (err) {
    if (errno(err) !== 'EEXIST') throw err;
    const age = await stat(breaker).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (age > BREAK_STALE_MS) await rmdir(breaker).catch(() => undefined);
    return;
  }
  try {
    // Still the same stale directory? Another breaker may have replaced it with a live guard.
    const again = await judge(path);
    if (again.stale && again.ino === ino) await rm(path, { recursive: true, force: true });
  } finally {
    await rmdir(breaker).catch(() => undefined);
  }
}

export { GuardBusyError, isAlive };
