/**
 * `sessions import --from`: reads each file, turns it into a session and stores it, one file at
 * a time (a bad file is reported and the others go on). Idempotent: a conversation keeps the ID
 * `<tool>-<its ID>`; imported again unchanged, nothing is written; grown, its copy is brought
 * up to date when it was not continued in chatkeep, else the whole conversation becomes a new
 * session (`<tool>-<its ID>.2`) recording the copy it continues. Returns what happened; prints nothing.
 */
import { AmbiguousIdError, ChatkeepError, TrashedSessionError, UnknownSessionError } from '../session/api/errors.js';
import type { SessionSnapshot } from '../session/api/data.js';
import type { SessionManager } from '../session/runtime/manager-api.js';
import type { Candidate } from './discover.js';
import { peerReaders } from './readers.js';
import { importedId, peerSnapshot } from './to-snapshot.js';
import { PeerFileError, type PeerConversation, type PeerTool } from './types.js';

export type ImportAction = 'new' | 'updated' | 'continued' | 'unchanged' | 'gone' | 'failed';

/** What became of one file. */
export interface ImportOutcome {
  path: string;
  action: ImportAction;
  tool: PeerTool;
  /** The conversation's ID in the tool (unless it could not be read). */
  sourceId?: string;
  /** The chatkeep session (`gone`: the ID it had, since trashed or deleted). */
  id?: string;
  /** `continued`: the session it continues. */
  continues?: string;
  project?: string;
  title?: string | null;
  messages?: number;
  /** `updated`, `continued`: messages the source has beyond the copy. */
  newMessages?: number;
  /** Source lines kept as they were. */
  kept?: number;
  /** `failed`: why, in a few words. */
  reason?: string;
}

export interface ImportRun {
  tool: PeerTool;
  files: readonly Candidate[];
  /** The directory whose project is meant; conversations held elsewhere are skipped unless `all`. */
  cwd: string;
  all: boolean;
  /** Only files changed since then. */
  since?: Date;
  dryRun: boolean;
  toolVersion: string;
  /** Told after each file (how many are done, of how many). */
  onProgress?: (done: number, total: number) => void;
}

/** `sessions`: undefined when there is no store yet (a dry run before anything was ever written). */
export async function importPeers(sessions: SessionManager | undefined, run: ImportRun): Promise<ImportOutcome[]> {
  if (!sessions && !run.dryRun) throw new Error('importPeers: a store is needed unless it is a dry run');
  // Whether a session of that very ID is stored (resolving never writes, unlike a listing's index).
  const exists = async (id: string): Promise<boolean> => {
    if (!sessions) return false;
    try {
      return (await sessions.resolve(id)).id === id;
    } catch (err) {
      if (err instanceof UnknownSessionError || err instanceof TrashedSessionError || err instanceof AmbiguousIdError) return false;
      throw err;
    }
  };
  const claimed = new Set<string>();
  const readers = await peerReaders(run.tool, run.since, run.files);
  const one = (i: number, file: Candidate): Promise<ImportOutcome | undefined> =>
    importFile(sessions, run, file, readers.read(i), () => readers.again(file), exists, claimed).catch((err: unknown): ImportOutcome => {
      if (err instanceof PeerFileError || err instanceof ChatkeepError || (err instanceof Error && 'code' in err)) {
        return { path: file.path, tool: run.tool, action: 'failed', reason: err.message };
      }
      throw err;
    });
  // Many files at once: the store commits the sessions stored meanwhile together (one fsync
  // pass per batch), and reading the next files overlaps that wait.
  const outcomes: (ImportOutcome | undefined)[] = new Array(run.files.length);
  let next = 0;
  let done = 0;
  const task = async (): Promise<void> => {
    while (next < run.files.length) {
      const i = next++;
      outcomes[i] = await one(i, run.files[i]!);
      run.onProgress?.(++done, run.files.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, run.files.length) }, task));
  } finally {
    await readers.close();
  }
  return outcomes.filter((o): o is ImportOutcome => o !== undefined);
}

/** Files imported at once (about one store batch). */
const CONCURRENCY = 128;

async function importFile(
  sessions: SessionManager | undefined,
  run: ImportRun,
  file: Candidate,
  /** The file, being read. */
  reading: Promise<PeerConversation | undefined>,
  /** Reads the file again. */
  again: () => Promise<PeerConversation | undefined>,
  exists: (id: string) => Promise<boolean>,
  claimed: Set<string>,
): Promise<ImportOutcome | undefined> {
  const c = await reading;
  if (!c) return undefined;
  const project = c.cwd ?? file.cwd;
  if (project === undefined) throw new PeerFileError('the working directory it was held in is not recorded (run the import from that directory)');
  if (!run.all && project !== run.cwd) return undefined;
  const base = { path: file.path, tool: run.tool, sourceId: c.id, project, title: c.title, messages: c.messages.length, kept: c.kept.length };
  // The same conversation in two files (a copy): the first one read is imported.
  if (claimed.has(`${run.tool}:${c.id}`)) return { ...base, action: 'unchanged', id: importedId(run.tool, c.id), reason: 'the same conversation as another file imported in this run' };
  claimed.add(`${run.tool}:${c.id}`);
  // A new conversation is stored at once (storing refuses an ID issued before: then it was imported before).
  // Nothing below the storing refers to the conversation, so it is not held while its batch
  // commits (held, each one lived long enough to be copied into the old generation: ~0.3 MB per
  // session the collector copied and then had to sweep); the rare conversation imported before
  // is read again.
  const first = importedId(run.tool, c.id);
  const lines = c.lines;
  if (!sessions || run.dryRun ? !(await exists(first)) : await sessions.storeImported(peerSnapshot({ ...c, cwd: project }, { id: first, project, toolVersion: run.toolVersion, ...lineage(run.tool, c) }))) {
    return { ...base, action: 'new', id: first };
  }
  if (!(await exists(first))) return { ...base, action: 'gone', id: first, reason: 'imported before, since moved to the trash or deleted' };
  // The copies made so far: `<tool>-<id>`, then `.2`, `.3` for continuations.
  let n = 1;
  while (await exists(importedId(run.tool, base.sourceId, n + 1))) n += 1;
  const lastId = importedId(run.tool, base.sourceId, n);
  if (!sessions) throw new Error('importPeers: a known ID without a store');
  const copy = await sessions.read(lastId);
  const from = copy.importSource;
  if (!from) throw new PeerFileError(`session ${lastId} is not an import of it`);
  if (lines <= from.lines) return { ...base, action: 'unchanged', id: lastId };
  // Grown since: read again (and reported as it is now).
  const now = await again();
  if (!now || now.id !== base.sourceId || now.lines <= from.lines) return { ...base, action: 'unchanged', id: lastId };
  const grown = { ...base, title: now.title, messages: now.messages.length, kept: now.kept.length };
  const archived = copy.archived.reduce((sum, a) => sum + a.messages.length, 0);
  const continued = copy.messages.length + archived !== from.messages;
  const newMessages = Math.max(0, now.messages.length - from.messages);
  if (!continued) {
    if (!run.dryRun) await sessions.storeImported(updated(now, copy, project, run.toolVersion), { replace: true });
    return { ...grown, action: 'updated', id: lastId, newMessages };
  }
  const id = importedId(run.tool, base.sourceId, n + 1);
  if (!run.dryRun) {
    const state = peerSnapshot({ ...now, cwd: project }, { id, project, toolVersion: run.toolVersion, parent: { id: lastId, at: Math.min(from.messages, copy.messages.length) } });
    if (!(await sessions.storeImported(state))) return { ...grown, action: 'gone', id, reason: 'imported before, since moved to the trash or deleted' };
  }
  return { ...grown, action: 'continued', id, continues: lastId, newMessages };
}

/**
 * A fork in its tool is a fork here: its parent is the ID that conversation is (or will be)
 * imported as, so the family forms whichever of the two is imported first.
 */
function lineage(tool: PeerTool, c: PeerConversation): { parent?: { id: string; at: number } } {
  return c.forkedFrom ? { parent: { id: importedId(tool, c.forkedFrom.id), at: c.forkedFrom.at } } : {};
}

/** The copy brought up to date: the source's conversation now, with what chatkeep keeps of the copy (its title, lineage, journal position). */
function updated(c: PeerConversation, copy: SessionSnapshot, project: string, toolVersion: string): SessionSnapshot {
  return peerSnapshot({ ...c, cwd: project }, {
    id: copy.id,
    project: copy.project,
    toolVersion,
    title: copy.title,
    journalSeq: copy.journalSeq,
    ...(copy.parentId !== undefined ? { parent: { id: copy.parentId, at: copy.forkPoint ?? 0 } } : {}),
  });
}
