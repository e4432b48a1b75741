import type { IndexRow } from '../../session/listing.js';
import { rowWithEvents } from '../../session/index-row.js';
import { readSession, type SessionSource } from '../../session/reading.js';
import { readJournal } from './journal.js';
import { layout } from './layout.js';
import { inspectLock } from './lock.js';
import { loadSession, loadSessionStable } from './load.js';

/** One session directory as the model reads sessions: its lock, and its snapshot + journal. */
export function sourceAt(dir: string, staleMs: number): SessionSource {
  return {
    inspectLock: () => inspectLock(dir, staleMs),
    load: (options) => (options.stable ? loadSessionStable : loadSession)(dir, options),
  };
}

/** The truth about one session, from its files (snapshot + journal + lock); reads, never writes. */
export async function rowFromFiles(dir: string, id: string, projectPath: string, staleMs: number): Promise<IndexRow> {
  return (await readSession(sourceAt(dir, staleMs), id, projectPath, { now: new Date(), stable: false })).row;
}

/** Brings a row of a live session up to date with its journal (cheap: the journal is short). */
export async function applyJournalToRow(row: IndexRow, dir: string): Promise<IndexRow> {
  const { events } = await readJournal(layout.journal(dir));
  return rowWithEvents(row, events);
}
