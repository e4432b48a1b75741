/**
 * `chatkeep sessions rm|trash|restore|prune|empty-trash` (docs/design.md §7): sessions go to the trash
 * and come back from it; `empty-trash` is the only deletion, and it asks first (on a terminal)
 * or needs `--yes`. A missing data directory is simply empty: nothing is created.
 */
import { openSessions } from '../index.js';
import { ChatkeepError, UserError } from '../session/api/errors.js';
import { noSuchSession } from '../session/api/ids.js';
import type { TrashedSession } from '../session/format/store.js';
import type { SessionSummary } from '../session/api/listing.js';
import type { SessionManager } from '../session/runtime/manager-api.js';
import { loadFormatting, plural, relativeTime, shortAge } from '../terminal/format.js';
import { resumeLine } from '../repl/host.js';
import { commandOf, PLAIN_CHATKEEP } from './chatkeep-host.js';
import { describeError } from '../terminal/report-error.js';
import type { SessionsCommand, SessionsEnvironment } from './sessions-common.js';
import { fitTable, type FitStep } from '../terminal/fit-table.js';
import { parseAge } from './age.js';
import { sessionsMayExist } from '../store/choice.js';
import { visibleText } from '../text/visible-text.js';

/** `--older-than` as typed and in milliseconds. */
type Age = { spec: string; ms: number };

/** The subcommands' environment, with the clock read once. */
type TrashEnvironment = Omit<SessionsEnvironment, 'now'> & { now: Date };

/** What each trash subcommand starts from: the environment, its output and the sessions (none when nothing is stored). */
interface Start {
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
async function start(command: SessionsCommand, given: SessionsEnvironment, needed = false): Promise<Start> {
  await loadFormatting();
  const environment = { ...given, now: given.now?.() ?? new Date() };
  const { home, store, cwd, env } = environment;
  const out = output(environment, command.options.json === true);
  const spec = command.options['older-than'];
  const age = spec === undefined ? undefined : { spec, ms: parseAge(spec) };
  const stored = sessionsMayExist(environment);
  if (!stored && needed) throw noSuchSession(command.ids[0]!);
  const sessions = stored ? await openSessions({ home, store, cwd, env }) : undefined;
  return { environment, out, age, sessions };
}

/** `rm ID…`: every ID is resolved first (an unknown one moves nothing), then each is moved; one in use is refused (exit 3). */
export async function runRm(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { sessions, out } = await start(command, environment, true);
  return remove(sessions!, command.ids, out);
}

/** `restore ID`: back from the trash, resumable as before. */
export async function runRestore(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { sessions, out } = await start(command, environment, true);
  const restored = await sessions!.restore(command.ids[0]!);
  out.data(restored, () => `Restored ${restored.id} to ${restored.project}. ${resumeLine(environment.host ?? PLAIN_CHATKEEP, restored.id)}`);
  return 0;
}

/** `trash`: what is in it, most recently trashed first. */
export async function runTrash(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const started = await start(command, environment);
  const entries = started.sessions ? await started.sessions.listTrash() : [];
  started.out.data(entries.map(trashJson), () => (entries.length === 0 ? 'The trash is empty.' : trashRows(entries, started.environment).join('\n')));
  return 0;
}

export async function runPrune(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const started = await start(command, environment);
  return prune(started.sessions, { ...command.options, age: started.age! }, started.out, started.environment.now);
}

export async function runEmptyTrash(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const started = await start(command, environment);
  return emptyTrash(started.sessions, { ...command.options, age: started.age }, started.out, started.environment);
}

/** Data on stdout (JSON with `--json`, else the text), notes for people on stderr. */
function output(environment: TrashEnvironment, json: boolean) {
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
type Output = ReturnType<typeof output>;

/** `rm ID…`: every ID is resolved first (an unknown one moves nothing), then each is moved; one in use is refused (exit 3). */
async function remove(sessions: SessionManager, ids: readonly string[], out: Output): Promise<number> {
  const resolved = [...new Set(await Promise.all(ids.map(async (id) => (await sessions.resolve(id)).id)))];
  const moved = await moveToTrash(sessions, resolved, out);
  out.data(moved.entries.map(trashJson), () => moved.entries.map((t) => `Moved ${t.id} to the trash.`).join('\n'));
  if (!out.json && moved.entries.length > 0) out.note(restoreHint(moved.entries, out.chatkeep));
  return moved.exitCode;
}

/** Moves each session; what cannot be moved is said on stderr, the others go on. */
async function moveToTrash(sessions: SessionManager, ids: readonly string[], out: Output): Promise<{ entries: TrashedSession[]; exitCode: number }> {
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
function restoreHint(entries: readonly TrashedSession[], chatkeepCommand: (args: readonly string[]) => string): string {
  const command = chatkeepCommand(['sessions', 'restore', entries[0]!.id]);
  if (entries.length === 1) return `Restore with: ${command}`;
  // Nothing after a command on its line: pasted, it runs as printed.
  return `Restore each by its ID, the first with: ${command}\nList the trash with: ${chatkeepCommand(['sessions', 'trash'])}`;
}

/** `prune --older-than AGE [--all] [--dry-run]`: sessions last updated before now − AGE go to the trash, each ID printed. */
async function prune(sessions: SessionManager | undefined, options: SessionsCommand['options'] & { age: Age }, out: Output, now: Date): Promise<number> {
  const { spec } = options.age;
  const cutoff = now.getTime() - options.age.ms;
  const rows = sessions ? (await sessions.list({ all: options.all === true })).filter((row) => row.updatedAt.getTime() < cutoff) : [];
  const where = options.all ? '' : ' in this project';
  if (rows.length === 0) {
    out.data([], () => '');
    out.note(`No sessions${where} were last updated more than ${spec} ago; nothing moved.`);
    return 0;
  }
  if (options['dry-run']) {
    out.data(rows.map(pruneJson), () => rows.map((row) => row.id).join('\n'));
    out.note(`Dry run: ${plural(rows.length, 'session')}${where} would go to the trash; nothing moved.`);
    return 0;
  }
  const moved = await moveToTrash(sessions!, rows.map((row) => row.id), out);
  out.data(moved.entries.map(trashJson), () => moved.entries.map((t) => t.id).join('\n'));
  if (!out.json && moved.entries.length > 0) out.note(`Moved ${plural(moved.entries.length, 'session')} to the trash. ${restoreHint(moved.entries, out.chatkeep)}`);
  return moved.exitCode;
}

/** `empty-trash [--older-than AGE] [--yes]`: the only deletion; asks on a terminal, needs `--yes` elsewhere. */
async function emptyTrash(
  sessions: SessionManager | undefined,
  options: SessionsCommand['options'] & { age: Age | undefined },
  out: Output,
  environment: TrashEnvironment,
): Promise<number> {
  const spec = options.age?.spec;
  // Only what is listed (and so confirmed) now: anything trashed after this moment is kept.
  const before = new Date(options.age === undefined ? environment.now.getTime() + 1 : environment.now.getTime() - options.age.ms);
  const doomed = (sessions ? await sessions.listTrash() : []).filter((t) => t.trashedAt.getTime() < before.getTime());
  if (doomed.length === 0) {
    out.data([], () => '');
    out.note(spec === undefined ? 'The trash is empty.' : `Nothing in the trash was put there more than ${spec} ago.`);
    return 0;
  }
  const what = `${plural(doomed.length, 'session')} in the trash (${preview(doomed)})`;
  if (!options.yes) {
    if (!environment.confirm) {
      const again = ['sessions', 'empty-trash', ...(spec !== undefined ? ['--older-than', spec] : []), '--yes'];
      throw new UserError(`This would delete ${what} for good; nothing was deleted.`, 'E_CONFIRM', 2, { to: 'To go ahead, run:', run: again });
    }
    if (!(await environment.confirm(`Delete ${what} for good? This cannot be undone.`))) {
      out.data([], () => '');
      out.note('Nothing was deleted.');
      return 0;
    }
  }
  const deleted = await sessions!.emptyTrash({ olderThan: before });
  out.data(deleted, () => deleted.join('\n'));
  if (!out.json) out.note(`Deleted ${plural(deleted.length, 'session')} for good.`);
  return 0;
}

function preview(entries: readonly TrashedSession[]): string {
  const ids = entries.slice(0, 3).map((t) => t.id).join(', ');
  return entries.length > 3 ? `${ids}, …` : ids;
}

/**
 * What gives up room in a trash row wider than the terminal, first to last: the title beyond 32
 * columns, the time in short form, the title to 24, the message count, the title to 12.
 */
const TRASH_ROW_PLAN: readonly FitStep[] = [{ cut: 3, to: 32 }, { shorten: 1 }, { cut: 3, to: 24 }, { drop: 2 }, { cut: 3, to: 12 }];

function trashRows(entries: readonly TrashedSession[], environment: TrashEnvironment): string[] {
  const when = (at: Date): string => (environment.terminal ? relativeTime(at, environment.now) : at.toISOString());
  const cells = entries.map((t) => [
    t.id,
    `trashed ${when(t.trashedAt)}`,
    plural(t.messageCount, 'message'),
    visibleText(`${t.title ?? '(untitled)'}  [${t.project}]`),
  ]);
  const short = entries.map((t) => `trashed ${shortAge(t.trashedAt, environment.now)}`);
  return fitTable(cells, [{}, { short }, { align: 'right' }, {}], TRASH_ROW_PLAN, { width: environment.columns });
}

/** A row of `sessions trash --json` (and of what `rm` and `prune` moved). */
function trashJson(t: TrashedSession): Record<string, unknown> {
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

/** A row of `prune --dry-run --json`: what would move. */
function pruneJson(row: SessionSummary): Record<string, unknown> {
  return { id: row.id, title: row.title, project: row.project, updatedAt: row.updatedAt.toISOString(), messageCount: row.messageCount, status: row.status };
}
