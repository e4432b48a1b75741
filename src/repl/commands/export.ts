import { info, refusal } from '../command-result.js';
import { plural } from '../../terminal/format.js';
import type { SlashCommand } from '../types.js';

const ARGS = '[json|md|html] [file]';

/** `/export [format] [file]`: this session to a file (default `<id>.json` in the working directory). */
export const exportSession: SlashCommand = {
  name: 'export',
  summary: 'write this session to a file: json (what `sessions import` reads), md or html',
  args: ARGS,
  // Allowed with --no-persist: the file the user asks for is the one way to keep such a chat.
  async run(ctx, args) {
    // Loaded on first use: the formats are not needed on the way to the first prompt.
    const { EXPORT_FORMATS, exportFormat, formatOfFile, renderExport } = await import('../../export/formats.js');
    const text = args.trim();
    const [first = '', ...rest] = text.split(/\s+/);
    const named = first === '' ? undefined : exportFormat(first);
    let file = named ? rest.join(' ') : text;
    // One bare word with no extension is more likely a mistyped format than a file name.
    if (!named && rest.length === 0 && /^[A-Za-z]+$/.test(first)) {
      return refusal(`Unknown format \`${first}\`: use ${EXPORT_FORMATS.join(', ')} (${ctx.ui.command('export', ARGS)}). To write a file of that name, say the format too: ${ctx.ui.command('export', 'json', first)}`);
    }
    const format = named ?? (file === '' ? 'json' : (formatOfFile(file) ?? 'json'));
    if (file === '') file = `${ctx.session.current.id}.${format}`;
    const snapshot = ctx.session.current.copyState();
    const path = await ctx.services.writeFile(file, await renderExport(format, snapshot, ctx.services.version));
    return info(`Exported ${snapshot.id} (${plural(snapshot.messages.length, 'message')}) as ${format} to ${path}`);
  },
};
