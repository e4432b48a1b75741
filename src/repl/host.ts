/**
 * How a host names itself, the one setting that says what its program is called: the commands
 * the component prints (`Resume with: …`, an error's advice) are written for the host's own
 * program and flag, never `chatkeep`'s (docs/design.md §14).
 */
import { shellQuote } from '../terminal/quote.js';

/** The host's program, as a person runs it again. */
export interface HostName {
  /** The command that starts the host, as typed in a shell: `chatkeep`, `node my-repl.mjs`. Written as is. */
  program: string;
  /** The flag that resumes a session (`--session-id`, the default); `''`: the ID is the program's first argument. */
  resumeFlag?: string;
  /** Writes the host's command line for `args` itself (overrides `program`: chatkeep finds itself on PATH). */
  command?(args: readonly string[]): string;
  /**
   * The program takes chatkeep's subcommands (`sessions list --all`, `--fork ID`): chatkeep
   * itself. Otherwise advice a chat command cannot give is left out, never printed as a
   * subcommand the host does not have.
   */
  subcommands?: boolean;
}

/** The host's command line for `args`, each word quoted for a POSIX shell when needed. */
export function hostCommand(host: HostName, args: readonly string[]): string {
  if (host.command) return host.command(args);
  return [host.program, ...args.map(shellQuote)].join(' ');
}

/** The command that resumes session `id` in this host. */
export function resumeCommand(host: HostName, id: string): string {
  const flag = host.resumeFlag ?? '--session-id';
  return hostCommand(host, flag === '' ? [id] : [flag, id]);
}

/** `Resume with: …`, the last line on leaving a session. */
export function resumeLine(host: HostName, id: string): string {
  return `Resume with: ${resumeCommand(host, id)}`;
}
