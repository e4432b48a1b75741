import { info, refusal } from '../command-result.js';
import { findCommand } from '../parse-slash-command.js';
import type { CommandContext, SlashCommand } from '../types.js';

/** A command's line for /help in this host. */
export function summaryOf(command: SlashCommand, ctx: CommandContext): string {
  return command.summaryIn?.(ctx) ?? command.summary;
}

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
      return info(`${usage(command)}\n  ${summaryOf(command, ctx)}${aliases}`);
    }
    const left = ctx.commands.map(usage);
    const width = Math.max(...left.map((l) => l.length)) + 2;
    const lines = ctx.commands.map((c, i) => {
      const aliases = c.aliases?.filter((a) => a !== '?').map((a) => ` (also ${prefix}${a})`).join('') ?? '';
      return `  ${left[i]!.padEnd(width)}${summaryOf(c, ctx)}${aliases}`;
    });
    const notes = ctx.ui.helpNotes ?? [];
    return info(['Commands:', ...lines, ...(notes.length ? ['', ...notes] : [])].join('\n'));
  },
};
