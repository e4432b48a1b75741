import type { SlashCommand } from '../types.js';

/** `/quit`, `/exit`: the REPL saves, releases the lock and prints the way back. */
export const quit: SlashCommand = {
  name: 'quit',
  aliases: ['exit'],
  summary: 'save, release the session and leave (Ctrl-D does the same)',
  run() {
    return { type: 'quit' };
  },
};
