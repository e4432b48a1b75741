import { info } from '../command-result.js';
import { printable, UserError } from '../../session/errors.js';
import type { Message } from '../../session/data.js';
import { plural } from '../../text/plural.js';
import { visibleText } from '../../text/visible-text.js';
import type { SlashCommand } from '../types.js';

/** How much of each prompt the list shows: one line of a narrow screen. */
const PROMPT_COLUMNS = 60;

/**
 * `/rewind [N]`: continues in a fork holding this conversation's first N messages, as
 * `/fork --at N` does: this session is kept as it was, saved, closed and released, and the new
 * ID is said. Without N, lists your messages newest first, each with the `/rewind N` that
 * continues from just before it (to say it again differently).
 */
export const rewind: SlashCommand = {
  name: 'rewind',
  summary: 'continue in a fork holding the first N messages (this session kept as it was); without N, your messages to rewind to',
  args: '[N]',
  needsStore: true,
  async run(ctx, args) {
    const from = ctx.session.current;
    const text = args.trim();
    if (text === '') return info(promptList(from.messages));
    if (!/^\d{1,9}$/.test(text)) {
      throw new UserError(`Bad number of messages to keep \`${printable(text)}\`: give 0 or more, or nothing to list your messages.`, 'E_FORK_POINT', 2, {
        to: 'For example:',
        slash: { name: 'rewind', args: ['4'] },
      });
    }
    const at = Number(text);
    const next = await ctx.services.sessions.fork(from, { at });
    return {
      type: 'switch',
      session: next,
      reason: 'fork',
      content: `Rewound to message ${at}: now in ${next.id}, holding ${plural(at, 'message')}; ${from.id} is kept as it was.`,
    };
  },
};

/** This session's user messages, newest first, each after the `/rewind N` that goes back to just before it. */
function promptList(messages: readonly Message[]): string {
  const prompts = messages.flatMap((m, i) => (m.role === 'user' ? [{ at: i, text: m.content }] : [])).reverse();
  if (prompts.length === 0) return 'Nothing to rewind to yet: this session holds no message of yours.';
  const width = String(prompts[0]!.at).length;
  const lines = prompts.map((p) => `  /rewind ${String(p.at).padEnd(width)}  › ${oneLine(p.text)}`);
  return ['Your messages, newest first (/rewind N continues in a fork from just before it):', ...lines].join('\n');
}

function oneLine(text: string): string {
  const flat = [...visibleText(text.replace(/\s+/g, ' ').trim())];
  return flat.length > PROMPT_COLUMNS ? `${flat.slice(0, PROMPT_COLUMNS - 1).join('')}…` : flat.join('');
}
