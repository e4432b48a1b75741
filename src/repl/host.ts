/**
 * How a host names itself (the component never guesses `chatkeep`: docs/design.md §14): the commands the
 * component prints (`Resume with: …`) are written for the host's own program and flag.
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
