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
  /** Resolves to the chosen index, or -1 when cancelled (0, q, Esc, Ctrl-C, Ctrl-D). */
  pick(items: string[], question: string): Promise<number>;
  /** Resolves to true for yes; a cancel key means no. */
  confirm(question: string): Promise<boolean>;
}

export interface CommandContext {
  sessions: SessionManager;
  /** The live session (replaced after a `switch`). */
  session: Session;
  prompter: Prompter;
  /** Formats a listing row set for display (shared by /sessions and pickers). */
  formatRows(rows: SessionSummary[], currentId?: string): string[];
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
