/** `chatkeep sessions show ID`: one session's transcript, lineage and forks. */
import { ONE_ID, type SessionsSubcommand } from './subcommand.js';

export const show: SessionsSubcommand = {
  name: 'show',
  args: ONE_ID,
  // --all changes nothing: show finds a session in any project.
  options: { all: true, json: true, archived: 'also what /compact and /reset archived, where it was in the conversation' },
  usage: [{ synopsis: 'sessions show ID [--archived] [--json]', text: ["one session's transcript (ID or a unique prefix), its lineage and forks"], overview: true }],
  run: async (command, environment) => (await import('./show-run.js')).runShow(command, environment),
};
