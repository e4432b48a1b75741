/**
 * Slash commands (STYLE: one file each in `commands/`, listed in `commands/index.ts`).
 * Commands get a context and *return* a result; the REPL renders it. They never touch
 * `process` or the file system.
 */
import type { Session, SessionManager, SessionSummary } from '../session/types.js';

/** What a command asks the REPL to show or do. */
export type CommandResult =
  | { type: 'message'; level: 'info' | 'warning' | 'error'; content: string }
  | { type: 'quit' }
  /** The REPL closes (and so saves) the current session, then says so before `content`. */
  | { type: 'switch'; session: Session; content: string }
  | { type: 'none' };

/** Blocking TTY interactions (readline-sync in the real REPL, a fake in tests). */
export interface Prompter {
  /** True when a picker/confirmation can be shown (a TTY). */
  readonly interactive: boolean;
  /** Returns the chosen index, or -1 when cancelled. */
  pick(items: string[], question: string): number;
  confirm(question: string): boolean;
}

export interface CommandContext {
  sessions: SessionManager;
  /** The live session (replaced after a `switch`). */
  session: Session;
  prompter: Prompter;
  /** Formats a listing row set for display, fitted to the terminal (shared by /sessions and pickers; `picker`: rows of a picker). */
  formatRows(rows: SessionSummary[], currentId?: string, options?: { picker?: boolean }): string[];
  /** Every command, for /help and suggestions. */
  commands: readonly SlashCommand[];
  now(): Date;
}

export interface SlashCommand {
  name: string;
  aliases?: string[];
  /** One line for /help. */
  summary: string;
  /** e.g. `/save [title]` */
  usage?: string;
  run(ctx: CommandContext, args: string): Promise<CommandResult> | CommandResult;
}
