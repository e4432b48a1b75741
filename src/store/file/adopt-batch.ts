/**
 * Storing whole sessions under their own IDs (import, copies between stores) by the batch
 * (docs/design.md §7), where one snapshot at a time paid a file fsync, a directory fsync and an
 * index guard each, with every other write waiting behind the journal commits those forced.
 *
 * Each session is written in a staging directory beside the sessions (`.adopt-<pid>-<rand>`, a
 * name no listing reads). A batch then commits: the file system is flushed once (or each staged
 * file and directory fsynced, sync-file-system.ts), each staging directory is renamed into place
 * as `<id>/` (one atomic step: a session is whole or absent, whenever a kill comes), the parent
 * directories are fsynced, and only then is each ID recorded in `ids/` and each caller told it is
 * stored. A kill leaves at most staging directories, removed by the next batch of a later
 * process, and sessions without their `ids/` entry, which the next attempt to store them records.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, open as openCallback, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mkdir, open } from 'node:fs/promises';
import { errno } from '../../util/errno.js';
import { rowFromSnapshot } from '../../session/format/index-row.js';
import type { IndexRow } from '../../session/api/listing.js';
import type { SessionSnapshot } from '../../session/api/data.js';
import { GroupCommit } from '../group-commit.js';
import { isAlive } from '../process-identity.js';
import { FILE_MODE, fsyncDir, fsyncDirSync } from './atomic-write.js';
import { layout } from './layout.js';
import { issueId } from './ids.js';
import { syncFileSystem } from './sync-file-system.js';

/** Sessions committed together at most (what one kill can leave for a rerun to redo). */
const BATCH = 256;
const STAGE_PREFIX = '.adopt-';
let codec: Promise<typeof import('../../session/format/codec.js')> | undefined;

interface Staged {
  id: string;
  stage: string;
  sessionsDir: string;
  projectDir: string;
  row: IndexRow;
  settle: (stored: boolean) => void;
  fail: (err: unknown) => void;
}

/**
 * Collects the sessions being stored at the same time and commits them together: callers that
 * arrive while a batch commits join the next one. Each `adopt` resolves true once its session is
 * durable, false (writing nothing) when its ID was issued here before or its directory exists.
 */
export class AdoptBatches {
  private readonly queue = new GroupCommit<Staged>(BATCH, (batch) => this.commit(batch));
  /** Directories made (and swept) by this process: made once, not once per session. */
  private readonly made = new Set<string>();
  /**
   * IDs known issued: `ids/` as read once, and every ID recorded since by this process. IDs are
   * never withdrawn, so a hit is sure; a miss is checked again when the batch commits.
   */
  private issuedIds: Set<string> | undefined;

  constructor(
    /** `<home>/ids`. */
    private readonly idsDir: string,
    /** Records the listing rows of sessions just stored, by project directory. */
    private readonly onStored: (rows: { projectDir: string; rows: IndexRow[] }[]) => Promise<void>,
  ) {}

  async adopt(snapshot: SessionSnapshot, projectDir: string): Promise<boolean> {
    const idsDir = this.idsDir;
    const sessionsDir = layout.sessions(projectDir);
    // Once per directory and process: small synchronous calls.
    if (!this.made.has(sessionsDir)) {
      mkdirSync(sessionsDir, { recursive: true, mode: 0o700 });
      mkdirSync(idsDir, { recursive: true, mode: 0o700 });
      sweepStages(sessionsDir);
      this.made.add(sessionsDir);
    }
    this.issuedIds ??= new Set(readdirSync(idsDir));
    // A directory without its `ids/` entry (an older build, a kill) is found by the rename below.
    if (this.issuedIds.has(snapshot.id)) return false;
    const row = rowFromSnapshot(snapshot, 'closed');
    // Made on the thread pool: creating a directory and a file are the kernel's work of allocating
    // two inodes (~0.2 ms each on ext4), done beside the encoding of the next sessions.
    const stage = join(sessionsDir, `${STAGE_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
    await mkdir(stage, { mode: 0o700 }).catch(async (err: unknown) => {
      if (errno(err) !== 'ENOENT') throw err;
      // Removed since this process made it: made again.
      await mkdir(sessionsDir, { recursive: true, mode: 0o700 });
      await mkdir(stage, { mode: 0o700 });
    });
    // No meta file beside it (meta-file.ts): the listing row goes into index.json when the batch
    // commits, and a rebuilt index reads the snapshot instead, as for any session without one.
    // One inode fewer per session.
    try {
      const fd = await openFd(layout.snapshot(stage), 'wx', FILE_MODE);
      try {
        const { encodeSnapshot } = await (codec ??= import('../../session/format/codec.js'));
        writeText(fd, await encodeSnapshot(snapshot));
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      rmSync(stage, { recursive: true, force: true });
      throw err;
    }
    // The ID alone is kept until the batch commits: the snapshot is garbage from here.
    const id = snapshot.id;
    return new Promise<boolean>((settle, fail) => {
      this.queue.add({ id, stage, sessionsDir, projectDir, row, settle, fail });
    });
  }

  private async commit(batch: Staged[]): Promise<void> {
    const idsDir = this.idsDir;
    const stored: Staged[] = [];
    try {
      // Every staged file and directory durable first: a rename below must never put a session in
      // place whose bytes are not on disk. One flush of the file system, or else an fsync each.
      if (!(await syncFileSystem(batch[0]!.stage))) {
        await Promise.all(batch.map(async (s) => {
          const file = await open(layout.snapshot(s.stage), 'r');
          await file.sync().finally(() => file.close());
          await fsyncDir(s.stage);
        }));
      }
      // Then one step each puts a session in place.
      for (const s of batch) {
        if (exists(join(idsDir, s.id))) {
          dropStage(s);
          s.settle(false);
          continue;
        }
        try {
          renameSync(s.stage, join(s.sessionsDir, s.id));
          stored.push(s);
        } catch (err) {
          if (errno(err) !== 'EEXIST' && errno(err) !== 'ENOTEMPTY') throw err;
          // Its directory is there (stored before a kill, or by an older build): the ID is taken.
          dropStage(s);
          issueId(idsDir, s.id);
          this.issuedIds?.add(s.id);
          s.settle(false);
        }
      }
      for (const dir of new Set(stored.map((s) => s.sessionsDir))) fsyncDirSync(dir);
      // Recorded once the session is durably in place: a kill never leaves an ID issued for nothing.
      for (const s of stored) {
        issueId(idsDir, s.id);
        this.issuedIds?.add(s.id);
      }
      if (stored.length > 0) fsyncDirSync(idsDir);
    } catch (err) {
      for (const s of batch) {
        if (!stored.includes(s)) dropStage(s);
        s.fail(err);
      }
      return;
    }
    const byProject = new Map<string, IndexRow[]>();
    for (const s of stored) byProject.set(s.projectDir, [...(byProject.get(s.projectDir) ?? []), s.row]);
    // The listing cache: a failure only slows the next listing, which rebuilds it.
    await this.onStored([...byProject].map(([projectDir, rows]) => ({ projectDir, rows }))).catch(() => undefined);
    for (const s of stored) s.settle(true);
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (err) {
    if (errno(err) === 'ENOENT') return false;
    throw err;
  }
}

/** A new file's descriptor (made on the thread pool; written synchronously: writeText). */
const openFd = promisify(openCallback);

/**
 * Snapshots up to 1 MB of UTF-8 are encoded into this one buffer, kept for the next: a buffer
 * of its own per session (allocated, its pages faulted in, collected) cost three times the
 * encoding itself. A bigger one gets its own.
 */
let scratch: Buffer | undefined;

/** Writes `text` as UTF-8 at the file's start (synchronously: a copy into the page cache). */
function writeText(fd: number, text: string): void {
  scratch ??= Buffer.allocUnsafeSlow(1 << 20);
  const bytes = text.length * 3 <= scratch.length ? scratch.subarray(0, encoder.encodeInto(text, scratch).written) : Buffer.from(text, 'utf8');
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

const encoder = new TextEncoder();

function dropStage(s: Staged): void {
  try {
    rmSync(s.stage, { recursive: true, force: true });
  } catch {
    // Left for the sweep of a later process: no listing reads it.
  }
}

/** Removes staging directories of processes that are gone (killed mid-batch). */
function sweepStages(sessionsDir: string): void {
  let names: string[];
  try {
    names = readdirSync(sessionsDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(STAGE_PREFIX)) continue;
    const pid = Number(name.slice(STAGE_PREFIX.length).split('-')[0]);
    if (pid === process.pid || (Number.isInteger(pid) && isAlive(pid))) continue;
    rmSync(join(sessionsDir, name), { recursive: true, force: true });
  }
}
