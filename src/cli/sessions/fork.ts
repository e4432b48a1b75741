/** `chatkeep sessions fork ID [--at N] [--title TEXT]`: a fork made without starting a chat in it. */
import { ONE_ID, type SessionsSubcommand } from './subcommand.js';

export const fork: SessionsSubcommand = {
  name: 'fork',
  args: ONE_ID,
  // The source is found in any project (as --fork finds it); the fork is made in this one.
  options: { at: true, title: true, json: true },
  usage: [
    {
      synopsis: 'sessions fork ID [--at N] [--title TEXT] [--json]',
      text: ["a new session holding a copy of ID's conversation (its first N messages), ID untouched; prints the new ID"],
      overview: true,
    },
  ],
  run: async (command, environment) => (await import('./fork-run.js')).runFork(command, environment),
};
