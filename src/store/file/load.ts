import { copyFile, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isTempName } from './atomic-write.js';
import { readWhole } from './read-whole.js';
import type { SessionSnapshot } from '../../session/api/data.js';
import type { LoadOptions, StoredSession } from '../../session/format/store.js';
import { DamagedFileError, decodeSnapshot } from '../../session/format/codec.js';
import { errno } from '../../util/errno.js';
import { readJournal } from './journal.js';
import { salvageSnapshot, type Salvage } from '../../session/format/salvage.js';
import { corruptName, isCorruptName, layout } from './layout.js';

/**
 * Reads snapshot + journal (docs/design.md §5), uninterpreted. A newer schemaVersion throws
 * `FutureSchemaError` and touches nothing. With `quarantine`, a damaged snapshot is moved aside
 * (the model rebuilds the session from the journal) and a journal with damaged lines is copied
 * aside; every readable line is returned.
 */
export async function loadSession(dir: string, options: LoadOptions): Promise<StoredSession> {
  if (options.quarantine) await removeDeadTemps(dir);
  const notices: string[] = [];
  const phrases: string[] = [];
  const file = layout.snapshot(dir);
  let snapshot: SessionSnapshot | undefined;
  let damage: string | undefined;
  let salvage: Salvage | undefined;
  let text: string | undefined;
  try {
    text = await readWhole(file);
    snapshot = await decodeSnapshot(text, file);
  } catch (err) {
    if (err instanceof DamagedFileError) {
      salvage = salvageSnapshot(text ?? '');
      damage = err.message;
      phrases.push(`session.json: ${err.reason}`);
    } else if (errno(err) === 'EISDIR') {
      damage = `${file}: a directory, not a file`;
      phrases.push('session.json: a directory, not a file');
    } else if (errno(err) !== 'ENOENT') throw err;
  }
  if (damage !== undefined) {
    let where = 'left in place';
    if (options.quarantine) {
      const aside = corruptName(file, options.now);
      await rename(file, aside);
      where = `moved to ${aside}`;
    }
    notices.push(`The snapshot was damaged (${damage}); it was ${where}.`);
  }

  const journalPath = layout.journal(dir);
  let journal: Awaited<ReturnType<typeof readJournal>>;
  try {
    journal = await readJournal(journalPath);
  } catch (err) {
    if (errno(err) !== 'EISDIR') throw err;
    // Something else sits where the journal belongs: keep it, start an empty journal.
    phrases.push('journal.jsonl: a directory, not a file');
    journal = { events: [], futureEvents: [], tornTail: false, damagedLines: [] };
    let where = 'left in place';
    if (options.quarantine) {
      const aside = corruptName(journalPath, options.now);
      await rename(journalPath, aside);
      where = `moved to ${aside}`;
    }
    notices.push(`The journal was damaged (${journalPath}: a directory, not a file); it was ${where}.`);
  }
  if (journal.damagedLines.length > 0) {
    phrases.push(`journal.jsonl: ${journal.damagedLines.length} damaged line(s)`);
    let where = '';
    if (options.quarantine) {
      const copy = corruptName(journalPath, options.now);
      await copyFile(journalPath, copy);
      where = `; a copy is kept at ${copy}`;
    }
    const lines = journal.damagedLines.slice(0, 5).join(', ') + (journal.damagedLines.length > 5 ? ', …' : '');
    notices.push(
      `The journal had ${journal.damagedLines.length} damaged line(s) (line ${lines})${where}; every readable line was loaded.`,
    );
  }
  const createdAt = snapshot ? undefined : await stat(dir).then((s) => s.birthtime, () => undefined);
  const aside = await keptAside(dir);
  return {
    snapshot, events: journal.events, futureEvents: journal.futureEvents, notices, damage: phrases, snapshotDamaged: damage !== undefined,
    ...(salvage ? { salvage } : {}), ...(createdAt ? { createdAt } : {}), ...(aside.length > 0 ? { aside } : {}),
  };
}

/** The damaged parts moved aside in `dir` and still there (kept-aside.ts), oldest first. */
export async function keptAside(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter(isCorruptName).sort().map((name) => join(dir, name));
}

/** Which snapshot file is in place: a new one is renamed over it, so its inode changes. */
async function snapshotIdentity(dir: string): Promise<string> {
  try {
    const s = await stat(layout.snapshot(dir));
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch (err) {
    if (errno(err) === 'ENOENT') return 'missing';
    throw err;
  }
}

/**
 * Loads without the lock while a holder may be saving: a save renames a new snapshot in and
 * then truncates the journal, so a snapshot and a journal read on either side of it do not
 * belong together (messages would be missed). Reads again until the snapshot in place did
 * not change across the read.
 */
export async function loadSessionStable(dir: string, options: LoadOptions): Promise<StoredSession> {
  for (let attempt = 0; ; attempt++) {
    const before = await snapshotIdentity(dir);
    const loaded = await loadSession(dir, options);
    if ((await snapshotIdentity(dir)) === before || attempt >= 50) return loaded;
  }
}

/** A temp file a writer of this session's directory makes before its rename (snapshot, lock owner). */
export function isLeftoverTemp(name: string): boolean {
  return isTempName(name) || name.startsWith('lock.owner.json.tmp-') || name.startsWith('epoch.tmp-');
}

/**
 * Removes temp files (snapshot, lock owner) left by a writer killed before its rename. Only called with the
 * session's lock held, so no live writer owns them; what they hold is still in the snapshot
 * and journal, which are truncated only after a rename succeeds.
 */
async function removeDeadTemps(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const dead = names.filter(isLeftoverTemp);
  for (const name of dead) await unlink(join(dir, name)).catch(() => undefined);
}
