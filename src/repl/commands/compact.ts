import { info } from '../command-result.js';
import { keptByCompaction, MIN_COMPACTED } from '../../session/model/compaction.js';
import type { Message } from '../../session/api/data.js';
import type { SlashCommand } from '../types.js';

/**
 * `/compact [focus]`: the assistant summarises the conversation before the last exchange; the
 * summary replaces those messages on later turns, and they are archived inside the session.
 * The REPL runs the request (spinner, Ctrl-C); this only checks there is something to compact.
 */
export const compact: SlashCommand = {
  name: 'compact',
  summary: 'summarise the earlier conversation to make room (the messages are archived in the session)',
  args: '[focus]',
  run(ctx, args) {
    const none = nothingToCompact(ctx.session.current.messages);
    if (none) return info(none);
    const focus = args.trim().replace(/\s+/g, ' ');
    return { type: 'compact', focus: focus === '' ? null : focus };
  },
};

/** Why there is nothing to compact, or undefined when there is. */
export function nothingToCompact(messages: readonly Message[]): string | undefined {
  const earlier = messages.length - keptByCompaction(messages);
  if (earlier >= MIN_COMPACTED) return undefined;
  return `Nothing to compact yet: /compact summarises the messages before your last exchange, and there ${earlier === 1 ? 'is 1' : `are ${earlier}`}.`;
}
