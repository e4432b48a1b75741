/** `chatkeep sessions tree ID`: a session's whole family, from its root through every fork. */
import { ONE_ID, type SessionsSubcommand } from './subcommand.js';

export const tree: SessionsSubcommand = {
  name: 'tree',
  args: ONE_ID,
  // A family, and any two sessions, are found in every project: no --all.
  options: { json: true },
  usage: [{ synopsis: 'sessions tree ID [--json]', text: ['the family of a session: its root and every fork, each with its fork point'], overview: true }],
  run: async (command, environment) => (await import('./tree-run.js')).runTree(command, environment),
};
