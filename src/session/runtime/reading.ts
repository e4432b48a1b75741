import type { SessionSnapshot, SessionStatus } from '../api/data.js';
import type { IndexRow, SessionProblem } from '../api/listing.js';
import { FutureSchemaError } from '../api/errors.js';
import { rowFromSnapshot } from '../format/index-row.js';
import { blankSnapshot, dateFromId } from '../format/blank.js';
import { replay, type ReplayResult } from '../format/replay.js';
import { futureEventsNote } from '../model/future-events.js';
import { keptAsideProblem } from '../format/kept-aside.js';
import { plural } from '../../text/plural.js';
import { statsOf } from '../model/stats.js';
import type { Salvage } from '../format/salvage.js';
import type { LoadOptions, LockState, Reading, SessionEvent, SessionSource, StoredSession } from '../format/store.js';

/**
 * The one rule for a session's status (docs/design.md §5): `open` while a live process holds its
 * lock; `interrupted` when left open, or with a dead lock or events past its snapshot; else
 * what the snapshot says (no snapshot at all: interrupted).
 */
export function statusFrom(savedStatus: SessionStatus | undefined, lock: LockState, eventsPending: boolean): SessionStatus {
  if (lock.state === 'held') return 'open';
  if (lock.state === 'dead' || savedStatus === 'open' || savedStatus === 'interrupted' || eventsPending) return 'interrupted';
  return savedStatus ?? 'interrupted';
}

/** A session as loaded: its snapshot with the events past it applied, and what loading found. */
export interface LoadedSession {
  snapshot: SessionSnapshot;
  /** The status the stored snapshot recorded (before replay), or undefined without one. */
  savedStatus: SessionStatus | undefined;
  replay: ReplayResult;
  stored: StoredSession;
  /** The stored snapshot named another ID (a copy): it is rewritten under this one once held. */
  renamed: boolean;
}

/**
 * Loads a session from its store and interprets it (the one interpreter of events: `replay`).
 * A session has one identity, its ID in the store: a snapshot that names another (a session
 * folder copied by hand) is loaded under the store's ID, and the person is told.
 */
export async function loadFrom(source: Pick<SessionSource, 'load'>, id: string, projectPath: string, options: LoadOptions): Promise<LoadedSession> {
  const stored = await source.load(options);
  const savedStatus = stored.snapshot?.status;
  const snapshot = stored.snapshot ?? blankSnapshot(id, projectPath, dateFromId(id) ?? stored.createdAt ?? options.now);
  const salvage = stored.snapshot ? undefined : stored.salvage;
  const events = salvage ? fromSalvage(snapshot, salvage, stored.events) : stored.events;
  const renamed = snapshot.id !== id;
  if (renamed) {
    stored.notices.push(`Its snapshot names session ${snapshot.id} (a copy of it?); it is ${id} here, and is saved as ${id}.`);
    snapshot.id = id;
  }
  const result = replay(snapshot, events, stored.futureEvents);
  // Events a newer chatkeep wrote: kept in the snapshot, said once (when found past it).
  if (result.futureEvents.length > 0) stored.notices.push(futureEventsNote(result.futureEvents));
  if (stored.snapshotDamaged) {
    const fromSnapshot = salvage && salvage.messages.length + salvage.unreadable > 0
      ? `${plural(salvage.messages.length, 'message')} from the damaged snapshot${salvage.unreadable > 0 ? ` (${plural(salvage.unreadable, 'message')} in it could not be read)` : ''} and `
      : '';
    stored.notices.push(
      `Recovered ${fromSnapshot}${plural(result.recoveredMessages, 'message')} from the journal; the damaged snapshot is kept whole in the file moved aside.`,
    );
  }
  return { snapshot, savedStatus, replay: result, stored, renamed };
}

/**
 * Puts what was salvaged of a damaged snapshot into the blank one, and returns the events still to
 * apply over it. The snapshot's seq, when it was readable, says which events it already holds; when
 * it was cut off, a journaled message equal to a salvaged one (role, time, text) is that one.
 */
function fromSalvage(s: SessionSnapshot, salvage: Salvage, events: readonly SessionEvent[]): SessionEvent[] {
  s.messages = [...salvage.messages];
  s.stats = statsOf(s.messages);
  if (salvage.title !== undefined) s.title = salvage.title;
  if (salvage.journalSeq !== undefined) {
    s.journalSeq = salvage.journalSeq;
    return [...events];
  }
  const held = new Map<string, number>();
  const key = (role: unknown, time: unknown, content: unknown): string => JSON.stringify([role, time, content]);
  for (const m of salvage.messages) {
    const k = key(m.role, m.timestamp.toISOString(), m.content);
    held.set(k, (held.get(k) ?? 0) + 1);
  }
  return events.filter((e) => {
    if (e.type !== 'message') return true;
    const m = (e.payload as { message?: { role?: unknown; timestamp?: unknown; content?: unknown } }).message;
    const k = key(m?.role, m?.timestamp, m?.content);
    const n = held.get(k) ?? 0;
    if (n === 0) return true;
    held.set(k, n - 1);
    return false;
  });
}

/**
 * Reads a session without its lock and says what is wrong, if anything. Listings and `show`
 * both come from here, so they agree on the status, the message count and what is wrong.
 */
export async function readSession(
  source: SessionSource,
  id: string,
  projectPath: string,
  options: { now: Date; stable: boolean },
): Promise<Reading> {
  const lock = await source.inspectLock();
  try {
    const loaded = await loadFrom(source, id, projectPath, { now: options.now, quarantine: false, stable: options.stable });
    const status = statusFrom(loaded.savedStatus, lock, loaded.replay.applied > 0);
    const damage = loaded.stored.damage;
    const problem: SessionProblem | undefined = damage.length > 0 ? { kind: 'damaged', detail: damage.join('; ') } : keptAsideProblem(loaded.stored.aside);
    const withProblem = problem ? { problem } : {};
    const row = { ...rowFromSnapshot(loaded.snapshot, status), ...withProblem };
    // Its holder is alive: a reply it is still streaming is not a message yet (as rowWithEvents counts).
    if (status === 'open') row.messageCount -= loaded.replay.unfinishedReplies.length;
    return { reading: { id, project: projectPath, snapshot: loaded.snapshot, status, ...withProblem }, row };
  } catch (error) {
    // A newer schema or unreadable parts: listed with what is wrong, rather than hidden or shown
    // empty. Anything else (a store that failed for now: a pooler, a timeout) is not the
    // session's problem, and is not recorded as one.
    if (!(error instanceof FutureSchemaError) && !isFileError(error)) throw error;
    const problem: SessionProblem =
      error instanceof FutureSchemaError
        ? { kind: 'newer-version', detail: `schemaVersion ${error.found}; this chatkeep reads up to ${error.known}`, ...(error.writtenBy ? { needs: error.writtenBy } : {}) }
        : { kind: 'unreadable', detail: error instanceof Error ? error.message : String(error) };
    const status: SessionStatus = lock.state === 'held' ? 'open' : 'closed';
    const created = (dateFromId(id) ?? options.now).getTime();
    const row: IndexRow = { id, title: null, createdAt: created, updatedAt: created, messageCount: 0, status, project: projectPath, journalSeq: 0, problem };
    return { reading: { id, project: projectPath, status, problem }, row, error };
  }
}

/** An error of the file system about the session's files (EACCES, ELOOP, …), as opposed to the store failing. */
function isFileError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}

/**
 * Brings a row up to date with the events past its snapshot, through the one interpreter of
 * events (`replay`), over a snapshot that holds only what the row knows (no message bodies).
 */
export function rowWithEvents(row: IndexRow, events: readonly SessionEvent[]): IndexRow {
  const s = blankSnapshot(row.id, row.project, new Date(row.createdAt));
  s.title = row.title;
  if (row.titleSource) s.titleSource = row.titleSource;
  s.updatedAt = new Date(row.updatedAt);
  s.journalSeq = row.journalSeq;
  s.stats = {
    messageCount: row.messageCount,
    inputTokens: row.inputTokens ?? 0,
    outputTokens: row.outputTokens ?? 0,
    ...(row.byModel ? { byModel: row.byModel.map((m) => ({ ...m })) } : {}),
  };
  if (row.branch !== undefined) s.git = { root: '', branch: row.branch, head: null };
  if (row.parentId !== undefined) {
    s.parentId = row.parentId;
    s.forkPoint = row.forkPoint ?? 0;
  }
  const { unfinishedReplies } = replay(s, events);
  // The holder is alive: a reply it is still streaming is not a message yet (replay makes one of
  // it, interrupted, for a session whose holder is gone).
  s.stats.messageCount -= unfinishedReplies.length;
  // The row still describes the snapshot it was made from: its seq is that snapshot's.
  const next = { ...rowFromSnapshot(s, row.status), journalSeq: row.journalSeq };
  // What the snapshot had archived, plus what the events archived since (unknown stays unknown).
  if (row.archivedMessages !== undefined) next.archivedMessages! += row.archivedMessages;
  else if (next.archivedMessages === 0) delete next.archivedMessages;
  return next;
}
