/** `chatkeep sessions diff A B`: where two sessions part, and what each says after that. */
import type { SessionsSubcommand } from './subcommand.js';

export const diff: SessionsSubcommand = {
  name: 'diff',
  args: { min: 2, max: 2, missing: 'two session IDs' },
  // A family, and any two sessions, are found in every project: no --all.
  options: { json: true },
  usage: [
    {
      synopsis: 'sessions diff A B [--json]',
      text: ['where two sessions part, then each side after that (exit 1: they differ)'],
      overview: true,
    },
  ],
  run: async (command, environment) => (await import('./diff-run.js')).runDiff(command, environment),
};
