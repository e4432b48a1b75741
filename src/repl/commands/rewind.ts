import { info } from '../command-result.js';
import { printable, UserError } from '../../session/api/errors.js';
import type { Message } from '../../session/api/data.js';
import { rewindPoints, type RewindPoint } from '../../session/model/rewind-points.js';
import type { Session } from '../../session/api/session-api.js';
import { plural } from '../../text/plural.js';
import { visibleText } from '../../text/visible-text.js';
import type { CommandContext, CommandResult, SlashCommand } from '../types.js';

/** How much of each prompt the list shows: one line of a narrow screen. */
const PROMPT_COLUMNS = 60;

/**
 * `/rewind [N]`: continues in a fork holding this conversation's first N messages, as
 * `/fork --at N` does: this session is kept as it was, saved, closed and released, and the new
 * ID is said. Without N, on a host that can show a list to pick from, your messages newest
 * first (those `/compact` archived too): the one picked goes back to you to edit, in a fork
 * holding what came before it, left in the host's input line where it has one and shown where
 * it has not. Elsewhere, the list of your messages, each with the `/rewind N` that goes back to
 * just before it.
 */
export const rewind: SlashCommand = {
  name: 'rewind',
  summary: 'continue in a fork holding the first N messages (this session kept as it was); without N, pick one of your messages to say again',
  args: '[N]',
  needsStore: true,
  async run(ctx, args) {
    const from = ctx.session.current;
    const text = args.trim();
    if (text === '') return ctx.services.pick ? pickAndRewind(ctx, from, ctx.services.pick) : info(promptList(from.messages));
    if (!/^\d{1,9}$/.test(text)) {
      throw new UserError(`Bad number of messages to keep \`${printable(text)}\`: give 0 or more, or nothing to list your messages.`, 'E_FORK_POINT', 2, {
        to: 'For example:',
        slash: { name: 'rewind', args: ['4'] },
      });
    }
    const at = Number(text);
    const next = await ctx.services.sessions.fork(from, { at });
    const content = `Rewound to message ${at}: now in ${next.id}, holding ${plural(at, 'message')}; ${from.id} is kept as it was.`;
    // A host without an input line to put it in shows the message that came next, when it was yours, to say again.
    const yours = from.messages[at]?.role === 'user' && ctx.ui.draftAtPrompt !== true ? from.messages[at]!.content : undefined;
    return { type: 'switch', session: next, reason: 'fork', content: yours === undefined ? content : `${content}\n${toEdit(yours)}` };
  },
};

/** The picker of your messages; the one picked is the fork's draft. */
async function pickAndRewind(ctx: CommandContext, from: Session, pick: NonNullable<CommandContext['services']['pick']>): Promise<CommandResult> {
  const points = rewindPoints(from);
  if (points.length === 0) return info(NOTHING_YET);
  const chosen = await pick('Rewind to which message of yours? (it comes back to edit, in a fork holding what came before it)', points.map(pointRow));
  if (chosen === undefined) return info(`Nothing rewound: still in ${from.id}.`);
  const point = points[chosen]!;
  const next = await ctx.services.sessions.fork(from, point.archived === undefined ? { at: point.at } : { at: point.at, archived: point.archived });
  await next.setDraft(point.text);
  const content = `Rewound to before your message: now in ${next.id}, holding ${plural(point.at, 'message')}; ${from.id} is kept as it was.`;
  return { type: 'switch', session: next, reason: 'fork', content: ctx.ui.draftAtPrompt === true ? content : `${content}\n${toEdit(point.text)}` };
}

function pointRow(point: RewindPoint): string {
  // Cut by the list to the screen's width, not here.
  return `${point.archived === undefined ? '' : '(compacted) '}${visibleText(point.text.replace(/\s+/g, ' ').trim())}`;
}

function toEdit(text: string): string {
  return `Your message, to send again as it was or changed: ${visibleText(text)}`;
}

const NOTHING_YET = 'Nothing to rewind to yet: this session holds no message of yours.';

/** This session's user messages, newest first, each after the `/rewind N` that goes back to just before it. */
function promptList(messages: readonly Message[]): string {
  const prompts = messages.flatMap((m, i) => (m.role === 'user' ? [{ at: i, text: m.content }] : [])).reverse();
  if (prompts.length === 0) return NOTHING_YET;
  const width = String(prompts[0]!.at).length;
  const lines = prompts.map((p) => `  /rewind ${String(p.at).padEnd(width)}  › ${oneLine(p.text)}`);
  return ['Your messages, newest first (/rewind N continues in a fork from just before it):', ...lines].join('\n');
}

function oneLine(text: string): string {
  const flat = [...visibleText(text.replace(/\s+/g, ' ').trim())];
  return flat.length > PROMPT_COLUMNS ? `${flat.slice(0, PROMPT_COLUMNS - 1).join('')}…` : flat.join('');
}
