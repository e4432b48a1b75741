import { fdatasyncSync, fstatSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { readWhole } from './read-whole.js';
import type { SessionEvent } from '../../session/format/store.js';
import { readEvent } from '../../session/model/future-events.js';
import type { FutureEvent } from '../../session/api/data.js';
import type { FileHandle } from 'node:fs/promises';
import { FILE_MODE } from './atomic-write.js';
import { errno } from '../../util/errno.js';

/** One journal line: `{seq, ts, type, payload}`. */
export type JournalEvent = SessionEvent;

/** What reading a journal found. */
export interface JournalContents {
  events: JournalEvent[];
  /** Lines of event types a newer chatkeep wrote, kept as they are (not damage). */
  futureEvents: FutureEvent[];
  /** The last line was incomplete (a crash mid-write) and was ignored. */
  tornTail: boolean;
  /** 1-based numbers of complete lines that did not parse: damage, not a crash. */
  damagedLines: number[];
}

/** Reads every readable event of a journal; a missing journal is empty. */
export async function readJournal(path: string): Promise<JournalContents> {
  let text: string;
  try {
    text = await readWhole(path);
  } catch (err) {
    if (errno(err) === 'ENOENT') return { events: [], futureEvents: [], tornTail: false, damagedLines: [] };
    throw err;
  }
  const lines = text.split('\n');
  // Every write ends with '\n': a last piece without one is a write cut short.
  const tail = lines.pop() ?? '';
  const events: JournalEvent[] = [];
  const futureEvents: FutureEvent[] = [];
  const damagedLines: number[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const event = parseLine(line);
    if (event && 'known' in event) events.push(event.known);
    else if (event) futureEvents.push(event.future);
    else damagedLines.push(i + 1);
  });
  return { events, futureEvents, tornTail: tail.length > 0, damagedLines };
}

function parseLine(line: string): ReturnType<typeof readEvent> {
  try {
    return readEvent(JSON.parse(line), line);
  } catch {
    return undefined;
  }
}

/** Length of the file up to and including its last newline. */
async function completeLength(handle: FileHandle, size: number): Promise<number> {
  if (size === 0) return 0;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === 0x0a) return size;
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const nl = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (nl !== -1) return start + nl + 1;
    end = start;
  }
  return 0;
}

/**
 * The append side of a journal. One `write` per event (a whole line), `fdatasync` for events
 * that must survive power loss. A failed write is cut back so no partial line is left in the
 * middle of the file.
 */
export class JournalWriter {
  /** The highest seq this writer appended; Infinity while lines of an earlier run may be past it (not read here). */
  private newest: number;

  private constructor(
    private readonly handle: FileHandle,
    private size: number,
  ) {
    this.newest = size === 0 ? -Infinity : Infinity;
  }

  /**
   * Opens (creating, 0600) the journal for appending. A torn last line (a write cut short by a
   * crash, never acknowledged) is cut off, so the next line does not glue onto it.
   */
  static async open(path: string): Promise<JournalWriter> {
    const handle = await open(path, 'a+', FILE_MODE);
    try {
      const { size } = await handle.stat();
      const end = await completeLength(handle, size);
      if (end !== size) {
        await handle.truncate(end);
        await handle.datasync();
      }
      return new JournalWriter(handle, end);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /** Appends one event; with `sync` (the default) resolves only once it is on disk. O(event). */
  async append(event: JournalEvent, sync = true): Promise<void> {
    const line = Buffer.from(`${JSON.stringify(event)}\n`, 'utf8');
    try {
      // Synchronous on purpose: one small write and one fdatasync per turn cost about what the
      // raw syscalls cost, where two thread-pool round trips would add half as much again.
      let written = 0;
      while (written < line.length) written += writeSync(this.handle.fd, line, written, line.length - written);
      if (sync) fdatasyncSync(this.handle.fd);
      this.size += line.length;
      this.newest = Math.max(this.newest, event.seq);
    } catch (err) {
      // ENOSPC and friends: remove whatever part of the line reached the file.
      await this.handle.truncate(this.size).catch(() => undefined);
      throw err;
    }
  }

  /** True once the journal was given a new inode by a process that took the session over (lock.ts): this one is no longer the session's. */
  replaced(): boolean {
    return fstatSync(this.handle.fd).nlink === 0;
  }

  /** Bytes of complete lines in the journal. */
  get bytes(): number {
    return this.size;
  }

  /** True when no line past `seq` is in the journal (known only for the lines this writer appended). */
  holdsNothingPast(seq: number): boolean {
    return this.size === 0 || this.newest <= seq;
  }

  /** Empties the journal (after a durable snapshot contains everything in it). */
  async truncate(): Promise<void> {
    await this.handle.truncate(0);
    await this.handle.datasync();
    this.size = 0;
    this.newest = -Infinity;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
