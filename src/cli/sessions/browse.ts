/** `chatkeep sessions browse [--all]`: the chat's session browser (`chatkeep -r`), its scope chosen. */
import { NO_ARGUMENTS, type SessionsSubcommand } from './subcommand.js';

export const browse: SessionsSubcommand = {
  name: 'browse',
  args: NO_ARGUMENTS,
  options: { all: true },
  usage: [
    {
      synopsis: 'sessions browse [--all]',
      text: ['the session browser (a terminal only): type to search, Enter resumes,', 'Tab switches this project / every project, Esc leaves'],
      overview: 'browse, search and resume sessions full-screen (as -r)',
    },
  ],
  // Enter opens the chat: the host (cli.ts) runs it.
  run: async (command, environment) => environment.openChat!(command.options.all === true),
};
