/**
 * What the trash subcommands (`sessions rm|trash|restore|prune|empty-trash`, docs/design.md §7)
 * share: the age checked and the sessions opened (a missing data directory is simply empty:
 * nothing is created), data on stdout and notes on stderr, moving sessions to the trash, and a
 * trashed session's JSON row.
 */
import { openSessions } from '../../index.js';
import { ChatkeepError } from '../../session/api/errors.js';
import { noSuchSession } from '../../session/api/ids.js';
import type { TrashedSession } from '../../session/format/store.js';
import type { SessionManager } from '../../session/runtime/manager-api.js';
import { loadWidths, type Widths } from '../../terminal/table.js';
import { commandOf } from '../chatkeep-host.js';
import { describeError } from '../../terminal/report-error.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import { parseAge } from '../age.js';
import { sessionsMayExist } from '../../store/choice.js';

/** `--older-than` as typed and in milliseconds. */
export type Age = { spec: string; ms: number };

/** The subcommands' environment, with the clock read once. */
export type TrashEnvironment = Omit<SessionsEnvironment, 'now'> & { now: Date; widths: Widths };

/** What each trash subcommand starts from: the environment, its output and the sessions (none when nothing is stored). */
export interface Start {
  environment: TrashEnvironment;
  out: Output;
  age: Age | undefined;
  sessions: SessionManager | undefined;
}

/**
 * Checks the age before anything is opened (bad input changes nothing), then opens the sessions
 * when any may exist (the manager checks each ID); `needed`: no sessions stored means the ID is
 * unknown, or malformed.
 */
export async function start(command: SessionsCommand, given: SessionsEnvironment, needed = false): Promise<Start> {
  const environment = { ...given, now: given.now?.() ?? new Date(), widths: await loadWidths() };
  const { home, store, cwd, env } = environment;
  const out = output(environment, command.options.json === true);
  const spec = command.options['older-than'];
  const age = spec === undefined ? undefined : { spec, ms: parseAge(spec) };
  const stored = sessionsMayExist(environment);
  if (!stored && needed) throw noSuchSession(command.ids[0]!);
  const sessions = stored ? await openSessions({ home, store, cwd, env }) : undefined;
  return { environment, out, age, sessions };
}

/** Data on stdout (JSON with `--json`, else the text), notes for people on stderr. */
export function output(environment: TrashEnvironment, json: boolean) {
  return {
    json,
    /** A chatkeep command line, as it runs where it is printed. */
    chatkeep: commandOf(environment),
    /** Nothing at all on stdout when the text is empty (a script reading IDs gets none). */
    data(value: unknown, text: () => string): void {
      const shown = json ? JSON.stringify(value, null, 2) : text();
      if (shown !== '') environment.stdout.write(`${shown}\n`);
    },
    note(line: string): void {
      environment.stderr.write(`${line}\n`);
    },
    /** A session that could not be moved: its one line, and the exit code it means. */
    refused(err: unknown): number {
      const report = describeError(err, commandOf(environment));
      environment.stderr.write(report.text);
      return report.exitCode;
    },
  };
}
export type Output = ReturnType<typeof output>;

/** Moves each session; what cannot be moved is said on stderr, the others go on. */
export async function moveToTrash(sessions: SessionManager, ids: readonly string[], out: Output): Promise<{ entries: TrashedSession[]; exitCode: number }> {
  const entries: TrashedSession[] = [];
  let exitCode = 0;
  for (const id of ids) {
    try {
      entries.push(await sessions.trash(id));
    } catch (err) {
      if (!(err instanceof ChatkeepError)) throw err;
      exitCode = Math.max(exitCode, out.refused(err));
    }
  }
  return { entries, exitCode };
}

/** How to get them back, as commands that run as printed. */
export function restoreHint(entries: readonly TrashedSession[], chatkeepCommand: (args: readonly string[]) => string): string {
  const command = chatkeepCommand(['sessions', 'restore', entries[0]!.id]);
  if (entries.length === 1) return `Restore with: ${command}`;
  // Nothing after a command on its line: pasted, it runs as printed.
  return `Restore each by its ID, the first with: ${command}\nList the trash with: ${chatkeepCommand(['sessions', 'trash'])}`;
}

/** A row of `sessions trash --json` (and of what `rm` and `prune` moved). */
export function trashJson(t: TrashedSession): Record<string, unknown> {
  return {
    id: t.id,
    title: t.title,
    project: t.project,
    trashedAt: t.trashedAt.toISOString(),
    ...(t.updatedAt ? { updatedAt: t.updatedAt.toISOString() } : {}),
    messageCount: t.messageCount,
    ...(t.parentId !== undefined ? { parentId: t.parentId, ...(t.forkPoint !== undefined ? { forkPoint: t.forkPoint } : {}) } : {}),
  };
}
