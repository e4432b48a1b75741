/** `chatkeep sessions search TEXT…`: full-text search; the words are one query. */
import { ANY_ARGUMENTS, type SessionsSubcommand } from './subcommand.js';

export const search: SessionsSubcommand = {
  name: 'search',
  args: ANY_ARGUMENTS,
  options: { all: true, json: true, limit: 'show the N best sessions (default 20; 0: all)' },
  usage: [
    {
      synopsis: 'sessions search TEXT [--all] [--limit N] [--json]',
      text: ['sessions whose messages, title or ID hold TEXT, best first', '(literal text; case and Unicode forms ignored)'],
      overview: true,
    },
  ],
  parse: (words, options, fail) => {
    const query = words.join(' ').trim();
    if (query === '') throw fail('sessions search needs some text to look for');
    const limitText = options.limit ?? '20';
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || !Number.isSafeInteger(limit)) throw fail(`--limit takes a whole number (0: all), not ${limitText}`);
    return { kind: 'sessions', action: 'search', ids: [], query, limit, options };
  },
  run: async (command, environment) => (await import('./search-run.js')).runSearch({ ...command, query: command.query!, limit: command.limit ?? 20 }, environment),
};
