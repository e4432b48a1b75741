/** `chatkeep sessions export ID`: one session as an archive, Markdown, a web page or a Claude Code file. */
import { ONE_ID, type SessionsSubcommand } from './subcommand.js';

export const exportSession: SessionsSubcommand = {
  name: 'export',
  args: ONE_ID,
  options: {
    format: 'json (the archive import reads, default), md, html, or claude (a Claude Code session file)',
    output: 'write to FILE instead of standard output',
  },
  usage: [
    {
      synopsis: 'sessions export ID [--format json|md|html] [-o FILE]',
      text: ['one session as a JSON archive (for import), Markdown or a web page', '(standard output unless -o; FILE ending in .md or .html picks that format)'],
      overview: true,
    },
    { synopsis: 'sessions export ID --format claude [-o FILE]', text: ['a Claude Code session file: `claude --resume` continues it (docs/import.md)'] },
  ],
  run: async (command, environment) => (await import('./export-run.js')).runExport(command, environment),
};
