/**
 * What the browser does to the highlighted session without leaving: fork, rename, move to the
 * trash, export. Each goes through the library calls the commands use (`fork`, `setTitle`,
 * `trash`, `renderExport`); a session held by another process is refused by the library with
 * the holder named, and that refusal is what the browser shows.
 */
import { titleCutNote } from '../terminal/title-cut.js';
import { ChatkeepError } from '../session/api/errors.js';
import type { Session } from '../session/api/session-api.js';
import type { SessionManager } from '../session/runtime/manager-api.js';
import { plural } from '../terminal/format.js';
import { hostCommand, type HostName } from '../repl/host.js';
import { visibleText } from '../text/visible-text.js';

/** What the actions run with: the store, and the host's own open session (the REPL's). */
export interface ActionHost {
  sessions: SessionManager;
  /** The session this chat holds: it is forked, renamed and exported from its live state, and never trashed from here. */
  live?: Session | undefined;
  /** Writes a file the user named, relative to the working directory; resolves to its absolute path. */
  writeFile(name: string, text: string): Promise<string>;
  /** This chatkeep's version (recorded in exports). */
  version: string;
  /** The host's program (a restore command is printed only when it takes chatkeep's subcommands). */
  program?: HostName | undefined;
}

/** What an action did, in lines for the browser's message area (a printed command stands alone on its line). */
export interface ActionOutcome {
  lines: string[];
  /** A session that now exists and should be highlighted (the fork). */
  select?: string;
  /** The listing changed (a fork, a rename, a move to the trash). */
  changed: boolean;
}

/** Runs `work`; a `ChatkeepError` (held elsewhere, a bad name) becomes one line saying what was not done and why. */
export async function attempt(refused: string, work: () => Promise<ActionOutcome>): Promise<ActionOutcome> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ChatkeepError)) throw err;
    return { lines: [`${refused}: ${err.message}`], changed: false };
  }
}

/** A new session holding a copy of `id`'s conversation (saved and released at once: Enter resumes it). */
export async function forkSession(host: ActionHost, id: string): Promise<ActionOutcome> {
  const from = host.live?.id === id ? host.live : id;
  const fork = await host.sessions.fork(from);
  const count = fork.messages.length;
  await fork.close();
  return { lines: [`Forked ${id} as ${fork.id} (${plural(count, 'message')}). Enter resumes it.`], select: fork.id, changed: true };
}

/** Renames `id` as `/title` does (its lock is taken for the write, then released); nothing else of it changes. */
export async function renameSession(host: ActionHost, id: string, title: string): Promise<ActionOutcome> {
  const text = title.trim();
  if (text === '') return { lines: ['A title cannot be empty; nothing renamed.'], changed: false };
  let stored: string | null;
  if (host.live?.id === id) {
    await host.live.setTitle(text);
    stored = host.live.title;
  } else {
    // Not resume: a rename from here must not record this directory's git work tree in it.
    stored = await host.sessions.rename(id, text);
  }
  // One rule with /title and /save TITLE: a long title is cut, and the line says so.
  return { lines: [`Renamed ${id} to "${visibleText(stored ?? text)}"${titleCutNote(text, stored)}.`], changed: true };
}

/** Moves `id` to the trash, restorable; the session this chat holds is refused. */
export async function trashSession(host: ActionHost, id: string): Promise<ActionOutcome> {
  if (host.live?.id === id) return { lines: [`${id} is the session of this chat: leave it or /load another one first. Nothing moved.`], changed: false };
  const moved = await host.sessions.trash(id);
  const { program } = host;
  if (!program?.subcommands) return { lines: [`Moved ${moved.id} to the trash.`], changed: true };
  // A printed command stands alone on its line: pasted, it runs as printed.
  return { lines: [`Moved ${moved.id} to the trash. Restore with:`, hostCommand(program, ['sessions', 'restore', moved.id])], changed: true };
}

/** Writes `id` to `file` (json, md or html by its name, as `sessions export -o FILE` does). */
export async function exportTo(host: ActionHost, id: string, file: string): Promise<ActionOutcome> {
  const name = file.trim();
  if (name === '') return { lines: ['Give a file name to export to; nothing written.'], changed: false };
  const { formatOfFile, renderExport } = await import('../export/formats.js');
  const format = formatOfFile(name) ?? 'json';
  const snapshot = host.live?.id === id ? host.live.copyState() : await host.sessions.read(id);
  const path = await host.writeFile(name, await renderExport(format, snapshot, host.version));
  return { lines: [`Exported ${id} (${plural(snapshot.messages.length, 'message')}) as ${format} to ${path}`], changed: false };
}
