import { info } from '../src/repl/command-result.js';
import { nothingToCompact } from '../src/repl/compact-turn.js';
import type { SlashCommand } from '../src/repl/types.js';

/**
 * `/compact [focus]`: the assistant summarises the conversation before the last exchange; the
 * summary replaces those messages on later turns, and they are archived inside the session.
 * The REPL runs the request (spinner, Ctrl-C); this only checks there is something to compact.
 */
export const compact: SlashCommand = {
  name: 'compact',
  summary: 'summarise the earlier conversation to make room (the messages are archived in the session)',
  usage: '/compact [focus]',
  run(ctx, args) {
    const none = nothingToCompact(ctx.session.messages);
    if (none) return info(none);
    const focus = args.trim().replace(/\s+/g, ' ');
    return { type: 'compact', focus: focus === '' ? null : focus };
  },
};
