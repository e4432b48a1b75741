/**
 * The titles and IDs of one search index file as one buffer, so that a query finds the sessions
 * whose title or ID holds it with one `Buffer.indexOf` scan, as messages are found, instead of
 * a test per session. Per session: its folded title, NUL, its ID lowercased (IDs are ASCII), NUL;
 * no folded query holds NUL, so a match never spans two parts. Made once per file read.
 */
import type { LoadedIndex } from './search-index-file.js';
import { lastAtOrBelow } from './word-index.js';

interface Names {
  text: Buffer;
  /** Where session i's part starts (sessions + 1 entries). */
  starts: Uint32Array;
}

const made = new WeakMap<LoadedIndex, Names>();

function namesOf(index: LoadedIndex): Names {
  let names = made.get(index);
  if (!names) {
    const parts = index.header.sessions.map((s) => Buffer.from(`${s.title}\0${s.id.toLowerCase()}\0`));
    const starts = new Uint32Array(parts.length + 1);
    parts.forEach((part, i) => (starts[i + 1] = starts[i]! + part.length));
    names = { text: Buffer.concat(parts), starts };
    made.set(index, names);
  }
  return names;
}

/** The sessions (by position) whose title or ID holds `needle`, each once (an empty query is in every ID). */
export function nameMatches(index: LoadedIndex, needle: Buffer): number[] {
  if (needle.length === 0) return index.header.sessions.map((_, i) => i);
  const { text, starts } = namesOf(index);
  const out: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; ) {
    const session = lastAtOrBelow(starts, at);
    out.push(session);
    at = text.indexOf(needle, starts[session + 1]!);
  }
  return out;
}
