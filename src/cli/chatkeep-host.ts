/**
 * chatkeep as a host names itself: its printed commands are the ones that run where it was
 * started (PATH, `npm start`, `node …`, with `--home` and `--store` when they were flags), and it
 * takes its own subcommands.
 */
import { hostCommand, type HostName } from '../repl/host.js';
import { chatkeepCommand, type Invocation } from '../terminal/invocation.js';

/** chatkeep started as `how` says (read at each command written: the CLI completes it as it goes). */
export function chatkeepHost(how: Invocation): HostName {
  return { program: 'chatkeep', command: (args) => chatkeepCommand(how, args), subcommands: true };
}

/** chatkeep when nothing is known of how it was started (tests, a program calling the CLI's parts): `chatkeep …`. */
export const PLAIN_CHATKEEP: HostName = { program: 'chatkeep', subcommands: true };

/** The command line for chatkeep `args` as `environment`'s host writes it (`PLAIN_CHATKEEP` when it names none). */
export function commandOf(environment: { host?: HostName | undefined }): (args: readonly string[]) => string {
  const host = environment.host ?? PLAIN_CHATKEEP;
  return (args) => hostCommand(host, args);
}
