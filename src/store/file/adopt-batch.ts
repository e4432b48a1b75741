/**
 * Storing whole sessions under their own IDs (import, copies between stores) by the batch
 * (issue 24 item 3): one fsync per session and per directory where one snapshot at a time paid a
 * file fsync, a directory fsync and an index guard each, with every other write waiting behind
 * the journal commits those forced.
 *
 * Each session is written in a staging directory beside the sessions (`.adopt-<pid>-<rand>`, a
 * name no listing reads), then the batch commits: every staged file and directory is fsynced, each
 * staging directory is renamed into place as `<id>/` (one atomic step: a session is whole or
 * absent, whenever a kill comes), the parent directories are fsynced, and only then is each ID
 * recorded in `ids/` and each caller told it is stored. A kill leaves at most staging directories,
 * removed by the next batch of a later process, and sessions without their `ids/` entry, which
 * the next attempt to store them records.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { errno } from '../../session/ids.js';
import { rowFromSnapshot, type IndexRow } from '../../session/index-row.js';
import type { SessionSnapshot } from '../../session/types.js';
import { isAlive } from '../process-identity.js';
import { FILE_MODE, fsyncDir } from './atomic-write.js';
import { layout } from './layout.js';
import { writeMeta } from './meta-file.js';

/** Sessions committed together at most (open file handles, and what one kill can cost a rerun). */
const BATCH = 64;
const STAGE_PREFIX = '.adopt-';

interface Staged {
  id: string;
  stage: string;
  sessionsDir: string;
  projectDir: string;
  row: IndexRow;
  file: FileHandle;
  settle: (stored: boolean) => void;
  fail: (err: unknown) => void;
}

/**
 * Collects the sessions being stored at the same time and commits them together: callers that
 * arrive while a batch commits join the next one. Each `adopt` resolves true once its session is
 * durable, false (writing nothing) when its ID was issued here before or its directory exists.
 */
export class AdoptBatches {
  private waiting: Staged[] = [];
  private running: Promise<void> | undefined;
  private readonly swept = new Set<string>();

  constructor(
    /** `<home>/ids`. */
    private readonly idsDir: string,
    /** Records the listing rows of sessions just stored, by project directory. */
    private readonly onStored: (rows: { projectDir: string; rows: IndexRow[] }[]) => Promise<void>,
  ) {}

  async adopt(snapshot: SessionSnapshot, projectDir: string): Promise<boolean> {
    const idsDir = this.idsDir;
    const sessionsDir = layout.sessions(projectDir);
    if (await issued(idsDir, sessionsDir, snapshot.id)) return false;
    await mkdir(sessionsDir, { recursive: true, mode: 0o700 });
    await mkdir(idsDir, { recursive: true, mode: 0o700 });
    if (!this.swept.has(sessionsDir)) {
      this.swept.add(sessionsDir);
      await sweepStages(sessionsDir);
    }
    const stage = join(sessionsDir, `${STAGE_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
    await mkdir(stage, { mode: 0o700 });
    const row = rowFromSnapshot(snapshot, 'closed');
    let file: FileHandle | undefined;
    try {
      const { encodeSnapshot } = await import('../../session/codec.js');
      file = await open(layout.snapshot(stage), 'wx', FILE_MODE);
      await file.writeFile(await encodeSnapshot(snapshot));
      // A cache beside the snapshot, moved with it (meta-file.ts).
      await writeMeta(stage, row);
    } catch (err) {
      await file?.close().catch(() => undefined);
      await rm(stage, { recursive: true, force: true }).catch(() => undefined);
      throw err;
    }
    const staged = file;
    return new Promise<boolean>((settle, fail) => {
      this.waiting.push({ id: snapshot.id, stage, sessionsDir, projectDir, row, file: staged, settle, fail });
      this.kick();
    });
  }

  /** Starts a commit unless one runs (it takes the waiting ones when it ends). */
  private kick(): void {
    if (this.running) return;
    this.running = (async () => {
      // Callers staging at this moment join this batch: the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.waiting.length > 0) await this.commit(this.waiting.splice(0, BATCH));
    })().finally(() => {
      this.running = undefined;
      if (this.waiting.length > 0) this.kick();
    });
  }

  private async commit(batch: Staged[]): Promise<void> {
    const idsDir = this.idsDir;
    try {
      // The files first: a rename below must never put a session in place whose bytes are not on disk.
      await Promise.all(batch.map(async (s) => s.file.sync().finally(() => s.file.close())));
      await Promise.all(batch.map((s) => fsyncDir(s.stage)));
      const stored: Staged[] = [];
      for (const s of batch) {
        if (await issuedId(idsDir, s.id)) {
          await dropStage(s);
          s.settle(false);
          continue;
        }
        try {
          await rename(s.stage, join(s.sessionsDir, s.id));
          stored.push(s);
        } catch (err) {
          if (errno(err) !== 'EEXIST' && errno(err) !== 'ENOTEMPTY') throw err;
          // Its directory is there (stored before a kill, or by an older build): the ID is taken.
          await dropStage(s);
          await recordId(idsDir, s.id);
          s.settle(false);
        }
      }
      await Promise.all([...new Set(stored.map((s) => s.sessionsDir))].map((dir) => fsyncDir(dir)));
      for (const s of stored) await recordId(idsDir, s.id);
      if (stored.length > 0) await fsyncDir(idsDir);
      const byProject = new Map<string, IndexRow[]>();
      for (const s of stored) byProject.set(s.projectDir, [...(byProject.get(s.projectDir) ?? []), s.row]);
      // The listing cache: a failure only slows the next listing, which rebuilds it.
      await this.onStored([...byProject].map(([projectDir, rows]) => ({ projectDir, rows }))).catch(() => undefined);
      for (const s of stored) s.settle(true);
    } catch (err) {
      for (const s of batch) {
        await s.file.close().catch(() => undefined);
        await rm(s.stage, { recursive: true, force: true }).catch(() => undefined);
        s.fail(err);
      }
    }
  }
}

/** True when `id` was issued here (its `ids/` entry) or its directory exists. */
async function issued(idsDir: string, sessionsDir: string, id: string): Promise<boolean> {
  return (await issuedId(idsDir, id)) || (await exists(join(sessionsDir, id)));
}

function issuedId(idsDir: string, id: string): Promise<boolean> {
  return exists(join(idsDir, id));
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if (errno(err) === 'ENOENT') return false;
    throw err;
  }
}

/** Records `id` as issued (kept forever, as `reserveId` does); already recorded is fine. */
async function recordId(idsDir: string, id: string): Promise<void> {
  try {
    await (await open(join(idsDir, id), 'wx', FILE_MODE)).close();
  } catch (err) {
    if (errno(err) !== 'EEXIST') throw err;
  }
}

async function dropStage(s: Staged): Promise<void> {
  await rm(s.stage, { recursive: true, force: true });
}

/** Removes staging directories of processes that are gone (killed mid-batch). */
async function sweepStages(sessionsDir: string): Promise<void> {
  const names = await readdir(sessionsDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(STAGE_PREFIX)) continue;
    const pid = Number(name.slice(STAGE_PREFIX.length).split('-')[0]);
    if (pid === process.pid || (Number.isInteger(pid) && isAlive(pid))) continue;
    await rm(join(sessionsDir, name), { recursive: true, force: true }).catch(() => undefined);
  }
}
