import { info, refusal } from '../command-result.js';
import { findCommand } from '../parse-slash-command.js';
import type { SlashCommand } from '../types.js';

/** `/help [cmd]`: generated from the command list, so it never misses one. */
export const help: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  summary: 'list commands, or show one (help NAME)',
  args: '[command]',
  run(ctx, args) {
    const prefix = ctx.ui.words.prefix ?? '/';
    // What the host types before a name is not part of it: `/help /save` and `.help .save` ask for `save`.
    const typed = args.trim();
    const wanted = typed.startsWith(prefix) ? typed.slice(prefix.length) : typed;
    const usage = (c: SlashCommand): string => [`${prefix}${c.name}`, ...(c.args ? [c.args] : [])].join(' ');
    if (wanted !== '') {
      const command = findCommand(wanted, ctx.commands);
      if (!command) return refusal(`Unknown command ${prefix}${wanted}. Type ${ctx.ui.command('help')}.`);
      const aliases = command.aliases?.length ? `\nAlso: ${command.aliases.map((a) => `${prefix}${a}`).join(', ')}` : '';
      return info(`${usage(command)}\n  ${command.summary}${aliases}`);
    }
    const left = ctx.commands.map(usage);
    const width = Math.max(...left.map((l) => l.length)) + 2;
    const lines = ctx.commands.map((c, i) => {
      const aliases = c.aliases?.filter((a) => a !== '?').map((a) => ` (also ${prefix}${a})`).join('') ?? '';
      return `  ${left[i]!.padEnd(width)}${c.summary}${aliases}`;
    });
    return info(
      ['Commands:', ...lines, '', 'Anything else is sent to the assistant (start with // to send a line beginning with /).', 'Ctrl-C stops a reply or clears the line; twice, or Ctrl-D, quits (a half-typed line is kept for the next resume).'].join('\n'),
    );
  },
};
