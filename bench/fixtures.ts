/**
 * Builds benchmark homes on disk: one project of many sessions, and single large sessions.
 * Files are written in the real snapshot format through the library's own codec (without the
 * per-file fsync of the real store: generating 10,000 sessions must not take minutes).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openSessions } from '../src/index.js';
import { encodeSnapshot } from '../src/session/format/codec.js';
import { layout } from '../src/store/file/layout.js';
import { rowFromSnapshot } from '../src/session/format/index-row.js';
import { writeMeta } from '../src/store/file/meta-file.js';
import { snapshotStamp, stamped } from '../src/store/file/snapshot-stamp.js';
import type { Message, SessionSnapshot } from '../src/session/api/data.js';
import type { SessionManager } from '../src/session/runtime/manager-api.js';
import { makeMessages } from './data.js';

/** `session-YYYYMMDD-HHmmss` for `base + seconds` (UTC). */
export function idAt(seconds: number, base = Date.UTC(2025, 0, 1)): string {
  const iso = new Date(base + seconds * 1000).toISOString();
  return `session-${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}

/** A manager on a fresh project, and the template snapshot of an empty session. */
export async function openProject(home: string, cwd: string): Promise<{ manager: SessionManager; template: SessionSnapshot }> {
  await mkdir(cwd, { recursive: true });
  const manager = await openSessions({ home, cwd });
  const first = await manager.create();
  // A session is kept once it holds a message (docs/design.md §3); the template is that session without it.
  await first.append({ role: 'user', content: 'template' });
  await first.close();
  const { titleSource: _auto, ...stored } = await manager.read(first.id);
  const template: SessionSnapshot = { ...stored, title: null, messages: [], stats: { messageCount: 0, inputTokens: 0, outputTokens: 0 } };
  return { manager, template };
}

/** Writes one session's snapshot directly in the store's format. */
export async function writeSession(manager: SessionManager, template: SessionSnapshot, id: string, messages: Message[]): Promise<string> {
  const dir = join(layout.sessions(layout.project(manager.store.location, manager.project.key)), id);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const last = messages.at(-1)?.timestamp ?? template.createdAt;
  const snapshot: SessionSnapshot = {
    ...template,
    id,
    title: messages[0]?.content.slice(0, 40) ?? null,
    createdAt: messages[0]?.timestamp ?? template.createdAt,
    updatedAt: last,
    status: 'closed',
    messages,
    stats: { messageCount: messages.length, inputTokens: 0, outputTokens: 0 },
    journalSeq: 0,
  };
  await writeFile(layout.snapshot(dir), await encodeSnapshot(snapshot), { mode: 0o600 });
  // As the store does after every snapshot: the listing row beside it.
  await writeMeta(dir, stamped(rowFromSnapshot(snapshot, 'closed'), snapshotStamp(dir)));
  return dir;
}

/**
 * A function that puts the session in `dir` back as it is now (its snapshot, no journal), for
 * a benchmark that resumes and changes it on every run. Its meta file goes: like any writer
 * of session.json other than chatkeep, this one must not leave it describing another snapshot.
 */
export async function sessionRestorer(dir: string): Promise<() => Promise<void>> {
  const pristine = await readFile(layout.snapshot(dir));
  return async () => {
    await writeFile(layout.snapshot(dir), pristine);
    await rm(layout.journal(dir), { force: true });
    await rm(layout.meta(dir), { force: true });
  };
}

/** `count` sessions of mixed sizes (2 to 40 short messages) in one project; `edit` may change each one's messages first. */
export async function manySessions(
  manager: SessionManager,
  template: SessionSnapshot,
  count: number,
  edit?: (session: number, messages: Message[]) => void,
): Promise<void> {
  const batch = 200;
  for (let start = 0; start < count; start += batch) {
    const jobs: Promise<string>[] = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const size = 2 + ((i * 7919) % 39);
      const messages = makeMessages(size, 300, i + 1, Date.UTC(2025, 0, 1) + i * 60_000);
      edit?.(i, messages);
      jobs.push(writeSession(manager, template, idAt(i * 60), messages));
    }
    await Promise.all(jobs);
  }
}
