import { MAX_CLIPBOARD_BYTES } from '../../terminal/clipboard.js';
import { info, refusal } from '../command-result.js';
import { plural } from '../../terminal/format.js';
import type { SlashCommand } from '../types.js';

/** `/copy`: the last reply to the clipboard, through the terminal (OSC 52). */
export const copy: SlashCommand = {
  name: 'copy',
  summary: "copy the last reply to the clipboard (through the terminal: OSC 52)",
  run(ctx, args) {
    if (args.trim() !== '') return refusal(`${ctx.ui.command('copy')} takes no arguments: it copies the last reply.`);
    const reply = ctx.session.current.messages.findLast((m) => m.role === 'assistant' && !m.superseded);
    if (!reply || reply.content === '') return info('Nothing to copy yet: no reply in this session.');
    if (ctx.services.clipboard.unavailable) return refusal(`Cannot copy: ${ctx.services.clipboard.unavailable}.`);
    const bytes = Buffer.byteLength(reply.content, 'utf8');
    if (bytes > MAX_CLIPBOARD_BYTES) return refusal(`Cannot copy: the reply is ${Math.ceil(bytes / 1000)} kB, more than terminals take at once (${MAX_CLIPBOARD_BYTES / 1000} kB). Select it on screen instead.`);
    ctx.services.clipboard.write(reply.content);
    return info(`Copied the last reply (${plural(reply.content.length, 'character')}) to the clipboard.`);
  },
};
