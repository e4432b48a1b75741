/**
 * What every `chatkeep sessions …` subcommand shares: the command and the environment it runs
 * with, the error that says what is wrong with a session, and the rows of `list --json`.
 */
import { estimateCost } from '../models/cost.js';
import { UserError } from '../session/api/errors.js';
import type { ModelUsage, Usage } from '../session/api/data.js';
import type { SessionProblem, SessionSummary } from '../session/api/listing.js';
import { countKnown, problemAdvice } from '../terminal/format.js';
import type { StoreEnvironment } from './environment.js';
import type { SessionsOptions } from './sessions-option-table.js';

/** A parsed `chatkeep sessions …` command line. */
export interface SessionsCommand {
  kind: 'sessions';
  /** The subcommand's name, or `help` (with `topic`: the help of that subcommand). */
  action: string;
  topic?: string;
  /** The session IDs given (`id`: the first). */
  id?: string;
  ids: string[];
  /** What `import` reads (`-`: standard input). */
  file?: string;
  /** `import --from`: the files and folders to read (none: the tool's own store). */
  paths?: string[];
  /** `search`: the text, as typed with single spaces between its words, and how many results to show (0: all). */
  query?: string;
  limit?: number;
  options: SessionsOptions;
}

/** What the process gives the subcommands (only cli.ts reads `process`). */
export interface SessionsEnvironment extends StoreEnvironment {
  stdout: NodeJS.WritableStream;
  /** Where what is wrong with listed sessions is said (the CLI's stderr). */
  stderr: NodeJS.WritableStream;
  /** What `sessions import -` reads. */
  stdin: NodeJS.ReadableStream;
  /** stdout is a terminal: times are relative (`5 minutes ago`), else ISO 8601. */
  terminal?: boolean;
  now?: () => Date;
  columns?: number;
  /** The user's home directory (where other tools keep their sessions: `sessions import --from`). */
  userHome?: string;
  /** Asks yes/no on the terminal (empty-trash); absent without one. */
  confirm?: (question: string) => Promise<boolean>;
  /** Opens the chat in the session browser (`sessions browse`; `all`: every project from the start). */
  openChat?: (all: boolean) => Promise<number>;
}

/** What is wrong with a session and how to recover, as the error the CLI reports (exit 2). */
export function problemError(id: string, problem: SessionProblem): UserError {
  const advice = problemAdvice(id, problem);
  const code = problem.kind === 'damaged' ? 'E_DAMAGED' : problem.kind === 'newer-version' ? 'E_FUTURE_SCHEMA' : problem.kind === 'recovered' ? 'E_RECOVERED' : 'E_UNREADABLE';
  return new UserError(advice.text, code, 2, advice.advice);
}

/** True when the session can be used as it is: its problem is only that damaged parts of it are kept aside. */
export function usable(problem: SessionProblem | undefined): boolean {
  return problem === undefined || problem.kind === 'recovered';
}

/** A row of `sessions list --json` (docs/usage.md). */
export function listRow(row: SessionSummary): Record<string, unknown> {
  return {
    id: row.id,
    title: row.title,
    ...(row.titleSource ? { titleSource: row.titleSource } : {}),
    ...(row.derivedTitle !== undefined ? { derivedTitle: row.derivedTitle } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    messageCount: countKnown(row.problem) ? row.messageCount : null,
    status: row.status,
    project: row.project,
    ...(row.usage ? { usage: row.usage } : {}),
    ...(row.problem ? { problem: row.problem } : {}),
    ...costField(row.usage, row.byModel),
    ...(row.branch ? { branch: row.branch } : {}),
    ...(row.parentId !== undefined ? { parentId: row.parentId, forkPoint: row.forkPoint ?? 0 } : {}),
    ...(row.owner !== undefined ? { owner: row.owner } : {}),
  };
}

/** `{ costUsd }` when the tokens' cost is known (every one from a priced model), else nothing. */
export function costField(usage: Usage | undefined, byModel: readonly ModelUsage[] | undefined): { costUsd?: number } {
  const cost = usage ? estimateCost(usage, byModel) : undefined;
  return cost !== undefined ? { costUsd: Number(cost.toFixed(6)) } : {};
}
