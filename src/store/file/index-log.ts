import { randomBytes } from 'node:crypto';

/**
 * What `index.json`'s header says changed, write by write (docs/design.md §8): the file's
 * `epoch` (made when the index is made anew), a `serial` one higher with each write, and the IDs
 * each of the latest writes changed (added, rewritten, removed). A reader that knows which
 * serial it last saw (the search index) reads what changed since from the header alone, instead
 * of comparing every row. A header without them (an older build rewrote the file) or whose log
 * no longer reaches back that far says nothing: the reader compares every row, as before.
 */
export interface IndexLog {
  epoch: string;
  serial: number;
  /** The log is complete for readers that saw this serial or a later one. */
  logFrom: number;
  /** `[serial, ...ids]` per write, oldest first. */
  changes: (string | number)[][];
}

/** IDs the header keeps at most (a batch import past that restarts the log: its readers compare every row once). */
const MAX_LOGGED = 256;

/** A new index's log: nothing before it is known. */
export function freshLog(): IndexLog {
  return { epoch: randomBytes(6).toString('hex'), serial: 0, logFrom: 0, changes: [] };
}

/** The log after one more write that changed `ids`; from `before` when it is this build's, else anew. */
export function nextLog(before: Partial<IndexLog> | undefined, ids: readonly string[]): IndexLog {
  const prior = isLog(before) ? before : undefined;
  if (!prior) return freshLog();
  const serial = prior.serial + 1;
  if (ids.length > MAX_LOGGED) return { epoch: prior.epoch, serial, logFrom: serial, changes: [] };
  const changes = ids.length > 0 ? [...prior.changes, [serial, ...ids]] : prior.changes.slice();
  let logged = changes.reduce((n, entry) => n + entry.length - 1, 0);
  let logFrom = prior.logFrom;
  while (logged > MAX_LOGGED) {
    const dropped = changes.shift()!;
    logged -= dropped.length - 1;
    logFrom = dropped[0] as number;
  }
  return { epoch: prior.epoch, serial, logFrom, changes };
}

/** The IDs changed after `serial` of `epoch`; undefined when the header cannot say (another epoch, a log that does not reach back). */
export function changedSince(header: Partial<IndexLog>, epoch: string, serial: number): Set<string> | undefined {
  if (!isLog(header) || header.epoch !== epoch || serial < header.logFrom || serial > header.serial) return undefined;
  const ids = new Set<string>();
  for (const [at, ...changed] of header.changes) if ((at as number) > serial) for (const id of changed) ids.add(id as string);
  return ids;
}

export function isLog(value: Partial<IndexLog> | undefined): value is IndexLog {
  return (
    value !== undefined && typeof value.epoch === 'string' && Number.isInteger(value.serial) && Number.isInteger(value.logFrom) &&
    Array.isArray(value.changes) &&
    value.changes.every((entry) => Array.isArray(entry) && Number.isInteger(entry[0]) && entry.slice(1).every((id) => typeof id === 'string'))
  );
}
