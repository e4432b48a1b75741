/**
 * The sessions of a search index file, in the form a search uses them (search-index-file.ts):
 * binary, so that opening a file of 100,000 sessions parses nothing and builds no map. Per
 * session its ID, key (the listing facts it was indexed from), folded title and first message;
 * the titles and lowercased IDs as one buffer, `title NUL id NUL` each, which a query scans with
 * one `Buffer.indexOf` (search-names.ts); and the positions ordered by ID, so that a session is
 * found by binary search.
 *
 *   u32 count · u32 × (count + 1) × 4: where each name, ID and key starts, and each first message
 *   u32 × count: positions by ID · names · IDs · keys · pad to 4
 */

/** One session in the index: its ID, the listing facts it was indexed from, its folded title, and where its messages start. */
export interface IndexedSession {
  id: string;
  key: string;
  title: string;
  first: number;
}

export interface SessionTable {
  readonly count: number;
  /** Where session i's messages start (count + 1 entries; the last: the number of messages). */
  readonly first: Uint32Array;
  at(position: number): IndexedSession;
  /** Every session, in order. */
  all(): IndexedSession[];
  /** The position of the session with this ID, if the file holds it. */
  find(id: string): number | undefined;
  /** `title NUL id NUL` per session (IDs lowercased), and where each starts (count + 1 entries). */
  readonly names: { text: Buffer; starts: Uint32Array };
}

/** What does not add up in an encoded table. */
export class TableDamage extends Error {}

export function encodeSessions(sessions: readonly IndexedSession[], messages: number): Buffer {
  const n = sessions.length;
  const names = sessions.map((s) => Buffer.from(`${s.title}\0${s.id.toLowerCase()}\0`));
  const ids = sessions.map((s) => Buffer.from(s.id));
  const keys = sessions.map((s) => Buffer.from(s.key));
  const starts = (parts: Buffer[]): Uint32Array => {
    const out = new Uint32Array(n + 1);
    parts.forEach((p, i) => (out[i + 1] = out[i]! + p.length));
    return out;
  };
  const first = new Uint32Array(n + 1);
  sessions.forEach((s, i) => (first[i] = s.first));
  first[n] = messages;
  const byId = Uint32Array.from(sessions.keys()).sort((a, b) => Buffer.compare(ids[a]!, ids[b]!));
  const u32 = (a: Uint32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const body = Buffer.concat([u32(Uint32Array.of(n)), u32(starts(names)), u32(starts(ids)), u32(starts(keys)), u32(first), u32(byId), ...names, ...ids, ...keys]);
  return Buffer.concat([body, Buffer.alloc(((body.length + 3) & ~3) - body.length)]);
}

/** The table in `blob` (4-aligned), checked enough that no lookup reads outside it; `TableDamage` when it does not add up. */
export function decodeSessions(blob: Buffer, messages: number): SessionTable {
  if (blob.length < 4 || blob.byteOffset % 4 !== 0) throw new TableDamage('its session table is cut short');
  const n = blob.readUInt32LE(0);
  const fixed = 4 + 4 * (4 * (n + 1) + n);
  if (fixed > blob.length) throw new TableDamage('its session table is cut short');
  const view = (k: number, count: number): Uint32Array => new Uint32Array(blob.buffer, blob.byteOffset + 4 + 4 * k * (n + 1), count);
  const [nameStarts, idStarts, keyStarts, first] = [view(0, n + 1), view(1, n + 1), view(2, n + 1), view(3, n + 1)];
  const byId = view(4, n);
  const names = blob.subarray(fixed, fixed + nameStarts[n]!);
  const ids = blob.subarray(fixed + names.length, fixed + names.length + idStarts[n]!);
  const keys = blob.subarray(fixed + names.length + ids.length, fixed + names.length + ids.length + keyStarts[n]!);
  if (keys.byteOffset + keys.length > blob.byteOffset + blob.length || names.length !== nameStarts[n] || ids.length !== idStarts[n] || keys.length !== keyStarts[n]) {
    throw new TableDamage('its session table is cut short');
  }
  for (const [what, starts] of [['names', nameStarts], ['IDs', idStarts], ['keys', keyStarts], ['messages', first]] as const) {
    if (starts[0] !== 0 && what !== 'messages') throw new TableDamage(`its session ${what} do not add up`);
    for (let i = 1; i <= n; i++) if (starts[i]! < starts[i - 1]!) throw new TableDamage(`its session ${what} do not add up`);
  }
  if (first[n] !== messages) throw new TableDamage('its sessions do not span the messages');
  for (let i = 0; i < n; i++) if (byId[i]! >= n) throw new TableDamage('its session order does not add up');
  const idOf = (i: number): Buffer => ids.subarray(idStarts[i], idStarts[i + 1]);
  // Decoded once each, as a search first needs them: a file kept in memory is searched at every keystroke.
  const decoded: (IndexedSession | undefined)[] = [];
  const at = (i: number): IndexedSession => (decoded[i] ??= decode(i));
  const decode = (i: number): IndexedSession => {
    if (!(i >= 0 && i < n)) throw new RangeError(`search index: no session ${i}`);
    // The title is the name's text up to its NUL (a folded title holds none).
    const title = names.toString('utf8', nameStarts[i], names.indexOf(0, nameStarts[i]));
    return { id: idOf(i).toString('utf8'), key: keys.toString('utf8', keyStarts[i], keyStarts[i + 1]), title, first: first[i]! };
  };
  return {
    count: n,
    first,
    at,
    all: () => Array.from({ length: n }, (_, i) => at(i)),
    find(id) {
      const wanted = Buffer.from(id);
      let lo = 0;
      let hi = n - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const c = Buffer.compare(idOf(byId[mid]!), wanted);
        if (c === 0) return byId[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    },
    names: { text: names, starts: nameStarts },
  };
}

/** A table of sessions in memory (an index just built), the same as a file gives. */
export function tableOf(sessions: readonly IndexedSession[], messages: number): SessionTable {
  // Copied to a buffer of its own: a small one may share Node's pool at an offset u32 views cannot take.
  return decodeSessions(Buffer.from(Uint8Array.from(encodeSessions(sessions, messages)).buffer), messages);
}
