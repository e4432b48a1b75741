/**
 * A Codex CLI fork made whole: its file records only its own turns and where they branch off
 * (`history`: the other conversation and how many lines of its file come first), as Codex
 * itself reads it back. The other conversation's file is found under the same `sessions` folder
 * (or `archived_sessions` beside it) by the ID in its name; those lines go in front, and the
 * fork records it as its parent at that many messages. A fork of a fork is followed back the
 * same way. When the other file is not there, the fork keeps only its own turns and no lineage.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseCodex } from './codex.js';
import type { PeerConversation } from './types.js';

/** Forks of forks followed back at most (a loop in the files ends here too). */
const DEPTH = 16;

export function withCodexHistory(c: PeerConversation, titles: ReadonlyMap<string, string>, depth = 0): PeerConversation {
  const history = c.history;
  if (!history || depth >= DEPTH) return c;
  const file = rolloutOf(c.path, history.id);
  if (!file) return c;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return c;
  }
  const head = text.split('\n').slice(0, history.lines).join('\n');
  let base: PeerConversation;
  try {
    base = withCodexHistory(parseCodex(head, file, statSync(file).mtime, titles), titles, depth + 1);
  } catch {
    return c; // the lines it begins with hold no messages: nothing to put in front
  }
  return {
    ...c,
    createdAt: base.createdAt < c.createdAt ? base.createdAt : c.createdAt,
    messages: [...base.messages, ...c.messages],
    forkedFrom: { id: history.id, at: base.messages.length },
  };
}

/** The rollout file of conversation `id` in the store `path` is in, if any. */
function rolloutOf(path: string, id: string): string | undefined {
  let dir = dirname(path);
  while (dirname(dir) !== dir && !/^(archived_)?sessions$/.test(basename(dir))) dir = dirname(dir);
  if (dirname(dir) === dir) dir = dirname(path);
  const roots = /^(archived_)?sessions$/.test(basename(dir)) ? [join(dirname(dir), 'sessions'), join(dirname(dir), 'archived_sessions')] : [dir];
  const suffix = `-${id}.jsonl`;
  for (const root of roots) {
    let names: string[];
    try {
      names = readdirSync(root, { recursive: true, encoding: 'utf8' });
    } catch {
      continue;
    }
    const found = names.find((n) => n.endsWith(suffix));
    if (found) return join(root, found);
  }
  return undefined;
}
