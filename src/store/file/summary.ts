import type { IndexRow } from '../../session/api/listing.js';
import type { Interpreter, SessionSource } from '../../session/format/store.js';
import { readJournal } from './journal.js';
import { layout } from './layout.js';
import { inspectLock } from './lock.js';
import { loadSession, loadSessionStable } from './load.js';
import { snapshotStamp, stamped } from './snapshot-stamp.js';

/** One session directory as the model reads sessions: its lock, and its snapshot + journal. */
export function sourceAt(dir: string, staleMs: number): SessionSource {
  return {
    inspectLock: () => inspectLock(dir, staleMs),
    load: (options) => (options.stable ? loadSessionStable : loadSession)(dir, options),
  };
}

/** How the file store's listing reads sessions: their files, as the model interprets them. */
export interface RowReader {
  staleMs: number;
  interpreter: Interpreter;
}

/** The truth about one session, from its files (snapshot + journal + lock); reads, never writes. */
export async function rowFromFiles(dir: string, id: string, projectPath: string, reader: RowReader): Promise<IndexRow> {
  const stamp = snapshotStamp(dir);
  return stamped((await reader.interpreter.read(sourceAt(dir, reader.staleMs), id, projectPath, { now: new Date(), stable: false })).row, stamp);
}

/** Brings a row of a live session up to date with its journal (cheap: the journal is short). */
export async function applyJournalToRow(row: IndexRow, dir: string, reader: RowReader): Promise<IndexRow> {
  const { events } = await readJournal(layout.journal(dir));
  return reader.interpreter.rowWithEvents(row, events);
}
