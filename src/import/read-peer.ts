/**
 * Reading one file of another tool into a conversation: its time, its text, and what the
 * format says. Reads and parses only: the same in this thread and on the reading threads
 * (readers.ts), which hand back what it returns.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Candidate } from './discover.js';
import { withCodexHistory } from './codex-history.js';
import { checkpointSource, isCheckpoint } from './gemini-checkpoint.js';
import { parsePeer } from './parse.js';
import type { PeerConversation, PeerTool } from './types.js';

/** Codex CLI's thread names, by the index file they were read from (one read per store). */
export type TitleCache = Map<string, Map<string, string>>;

/**
 * `file` as a conversation; undefined when it has not changed since `since`. Throws
 * `PeerFileError` when it is not one, and the file system's error when it cannot be read.
 * Synchronous: on a reading thread, a call on the shared thread pool would queue behind the
 * storing thread's (and a file is read in well under a millisecond).
 */
export function readPeerFile(tool: PeerTool, file: Candidate, since: Date | undefined, titles: TitleCache): PeerConversation | undefined {
  const info = statSync(file.path);
  if (since && info.mtime < since) return undefined;
  const text = readFileSync(file.path, 'utf8');
  if (tool === 'gemini' && isCheckpoint(file.path)) return checkpointSource(parsePeer(tool, text, file, info.mtime));
  if (tool !== 'codex') return parsePeer(tool, text, file, info.mtime);
  const names = codexTitles(file.path, titles);
  return withCodexHistory(parsePeer(tool, text, file, info.mtime, names), names);
}

/** Codex CLI's thread names (`session_index.jsonl` beside `sessions/`), read once per store. */
function codexTitles(path: string, cache: TitleCache): Map<string, string> {
  let dir = dirname(path);
  while (dirname(dir) !== dir && !/(^|\/)(archived_)?sessions$/.test(dir)) dir = dirname(dir);
  const index = join(dirname(dir), 'session_index.jsonl');
  let titles = cache.get(index);
  if (!titles) {
    titles = new Map<string, string>();
    let text = '';
    try {
      text = readFileSync(index, 'utf8');
    } catch {
      // no index: no names
    }
    for (const line of text.split('\n')) {
      try {
        const r = JSON.parse(line) as { id?: unknown; thread_name?: unknown };
        if (typeof r.id === 'string' && typeof r.thread_name === 'string' && r.thread_name !== '') titles.set(r.id, r.thread_name);
      } catch {
        // a line being written, or not an entry
      }
    }
    cache.set(index, titles);
  }
  return titles;
}
