/**
 * `chatkeep sessions list [--all] [--json]` and `chatkeep sessions show ID [--json]`: the
 * listing and transcripts for scripts. Reading never takes a lock, and a missing data
 * directory is simply empty (nothing is created).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isValidId, openSessions } from '../index.js';
import { InvalidIdError, UnknownSessionError } from '../session/errors.js';
import { estimateCost } from '../providers/cost.js';
import type { ModelUsage, SessionSnapshot, SessionSummary } from '../session/types.js';
import type { CliCommand } from './cli-options.js';
import { sessionsHelp } from './cli-options.js';
import { formatMessage, formatRows, loadFormatting, plural, relativeTime, tokens } from './format.js';

type SessionsCommand = Extract<CliCommand, { kind: 'sessions' }>;

/** Runs the subcommand, writing to `stdout`; resolves to the exit code. */
export async function runSessionsCommand(
  command: SessionsCommand,
  environment: {
    home: string;
    cwd: string;
    env: Record<string, string | undefined>;
    stdout: NodeJS.WritableStream;
    /** stdout is a terminal: times are relative (`5 minutes ago`), else ISO 8601. */
    terminal?: boolean;
    now?: () => Date;
  },
): Promise<number> {
  const { home, cwd, env, stdout } = environment;
  const now = environment.now?.() ?? new Date();
  const json = command.options.json === true;
  await loadFormatting();
  if (command.action === 'help') {
    stdout.write(sessionsHelp());
    return 0;
  }
  if (command.action === 'list') {
    const all = command.options.all === true;
    let rows: SessionSummary[] = [];
    let projectPath: string | undefined;
    if (existsSync(home)) {
      const sessions = await openSessions({ home, cwd, env });
      rows = await sessions.list({
        all,
        ...(command.options.branch !== undefined ? { branch: command.options.branch } : {}),
        ...(command.options.project !== undefined ? { project: resolve(cwd, command.options.project) } : {}),
      });
      projectPath = sessions.project.path;
    }
    if (json) stdout.write(`${JSON.stringify(rows.map(listRow), null, 2)}\n`);
    else if (rows.length === 0) stdout.write(`${emptyListing(command.options)}\n`);
    else stdout.write(`${formatRows(rows, { projectPath, now }).join('\n')}\n`);
    return 0;
  }
  const id = command.id!;
  if (!isValidId(id)) throw new InvalidIdError(id);
  if (!existsSync(home)) throw new UnknownSessionError(id);
  const snapshot = await (await openSessions({ home, cwd, env })).read(id);
  stdout.write(json ? `${JSON.stringify(showJson(snapshot), null, 2)}\n` : showText(snapshot, now, environment.terminal === true));
  return 0;
}

/** A row of `sessions list --json` (DESIGN §1). */
function listRow(row: SessionSummary): Record<string, unknown> {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    messageCount: row.messageCount,
    status: row.status,
    project: row.project,
    ...(row.usage ? { usage: row.usage } : {}),
    ...costField(row.usage, row.usageByModel),
    ...(row.branch ? { branch: row.branch } : {}),
  };
}

/** `{ costUsd }` when the tokens' cost is known (every one from a priced model), else nothing. */
function costField(usage: { inputTokens: number; outputTokens: number } | undefined, byModel: readonly ModelUsage[] | undefined): { costUsd?: number } {
  const cost = usage ? estimateCost(usage, byModel) : undefined;
  return cost !== undefined ? { costUsd: Number(cost.toFixed(6)) } : {};
}

/** What an empty listing says, naming the filters that emptied it. */
function emptyListing(options: SessionsCommand['options']): string {
  const where = options.all ? '' : options.project !== undefined ? ` in ${options.project}` : ' in this project';
  const branch = options.branch !== undefined ? ` on branch ${options.branch}` : '';
  const hint = options.all ? '' : ' (--all lists every project)';
  return where === '' && branch === '' ? 'No sessions yet.' : `No sessions${where}${branch} yet${hint}.`;
}

/** `sessions show --json` (DESIGN §1): the session's facts and its live messages. */
function showJson(s: SessionSnapshot): Record<string, unknown> {
  return {
    id: s.id,
    title: s.title,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    status: s.status,
    project: s.project,
    ...(s.git ? { git: s.git } : {}),
    provider: s.provider,
    messageCount: s.messages.length,
    archivedMessages: s.archived.reduce((n, segment) => n + segment.messages.length, 0),
    usage: { inputTokens: s.stats.inputTokens, outputTokens: s.stats.outputTokens },
    ...costField(s.stats, s.stats.byModel),
    messages: s.messages.map((m) => ({
      role: m.role,
      content: m.content,
      timestamp: m.timestamp.toISOString(),
      ...(m.usage ? { usage: m.usage } : {}),
      ...(m.interrupted ? { interrupted: true } : {}),
      ...(m.model ? { model: m.model } : {}),
    })),
  };
}

function showText(s: SessionSnapshot, now: Date, terminal: boolean): string {
  const head = [
    `${s.id}${s.title ? `  "${s.title}"` : ''}`,
    `  project ${s.project}${s.git?.branch ? ` (branch ${s.git.branch})` : ''} · ${s.status} · ${plural(s.messages.length, 'message')}${tokens(s.stats, s.stats.byModel)} · last active ${relativeTime(s.updatedAt, now)}`,
    '',
  ];
  // Each message under its time: how long ago for a person, ISO 8601 for a script.
  const time = (at: Date): string => `[${terminal ? relativeTime(at, now) : at.toISOString()}]`;
  const body = s.messages.flatMap((m) => [time(m.timestamp), ...formatMessage(m), '']);
  return [...head, ...body].join('\n');
}
