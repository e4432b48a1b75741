/**
 * The base of every error chatkeep throws (errors.ts says what they carry), and how a value
 * from outside is quoted inside a message. Apart so that each file of errors builds on it alone.
 */
import { visibleText } from '../../text/visible-text.js';

/**
 * What a person can do about an error, as data. `to` leads to the command (`List sessions
 * with:`); the command is given in each form a host may offer, and a host shows the one it has
 * (none: the message stands alone).
 */
export interface Advice {
  /** The sentence that leads to the command, as it joins it: `List sessions with:`, `The admin should run`. */
  readonly to: string;
  /** A subcommand of the program (`['sessions', 'list', '--all']`): what a CLI prints, after its own name. */
  readonly run?: readonly string[];
  /** A command typed in a chat (`{ name: 'sessions', args: ['--all'] }`): a REPL host writes it with its own prefix and name for it. */
  readonly slash?: { readonly name: string; readonly args?: readonly string[] };
  /** The library call that does it (`sessions.list({ all: true })`), for a program that words its own way. */
  readonly call?: string;
}

export class ChatkeepError extends Error {
  /** Stable machine-readable code, e.g. `E_UNKNOWN_SESSION`. */
  readonly code: string;
  /** Exit code the CLI uses when this error ends the program. */
  readonly exitCode: number;
  /** What to do about it, for the host to word (absent: nothing but what the message says). */
  readonly advice?: Advice;
  constructor(message: string, code: string, exitCode: number, advice?: Advice) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    if (advice) this.advice = advice;
  }
}

/** Bad usage or bad input: exit code 2. */
export class UserError extends ChatkeepError {
  constructor(message: string, code = 'E_USAGE', exitCode = 2, advice?: Advice) {
    super(message, code, exitCode, advice);
  }
}

/** Shows control characters and over-long input safely inside a one-line message. */
export function printable(text: string, max = 60): string {
  // eslint-disable-next-line no-control-regex
  const shown = visibleText(JSON.stringify(text).slice(1, -1).replace(/[\u0000-\u001f\u007f]/g, '?'));
  return shown.length > max ? `${shown.slice(0, max)}…` : shown;
}
