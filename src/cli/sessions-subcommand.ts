/** `chatkeep sessions …`: its help, or the subcommand named, run (sessions/index.ts lists them). */
import { sessionsHelp } from './sessions/help.js';
import { sessionsSubcommand } from './sessions/index.js';
import type { SessionsCommand, SessionsEnvironment } from './sessions-common.js';

/** Runs the subcommand, writing to `stdout`; resolves to the exit code. */
export async function runSessionsCommand(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  if (command.action === 'help') {
    environment.stdout.write(sessionsHelp(sessionsSubcommand(command.topic), environment.terminal === true));
    return 0;
  }
  return sessionsSubcommand(command.action)!.run(command, environment);
}
