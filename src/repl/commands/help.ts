import { info, refusal } from '../command-result.js';
import { findCommand } from '../parse-slash-command.js';
import type { SlashCommand } from '../types.js';

/** `/help [cmd]`: generated from the command list, so it never misses one. */
export const help: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  summary: 'list commands, or show one: /help save',
  usage: '/help [command]',
  run(ctx, args) {
    const wanted = args.trim().replace(/^\//, '');
    if (wanted !== '') {
      const command = findCommand(wanted, ctx.commands);
      if (!command) return refusal(`Unknown command /${wanted}. Type /help.`);
      const aliases = command.aliases?.length ? `\nAlso: ${command.aliases.map((a) => `/${a}`).join(', ')}` : '';
      return info(`${command.usage ?? `/${command.name}`}\n  ${command.summary}${aliases}`);
    }
    const left = ctx.commands.map((c) => c.usage ?? `/${c.name}`);
    const width = Math.max(...left.map((l) => l.length)) + 2;
    const lines = ctx.commands.map((c, i) => {
      const aliases = c.aliases?.filter((a) => a !== '?').map((a) => ` (also /${a})`).join('') ?? '';
      return `  ${left[i]!.padEnd(width)}${c.summary}${aliases}`;
    });
    return info(
      ['Commands:', ...lines, '', 'Anything else is sent to the assistant (start with // to send a line beginning with /).', 'Ctrl-C stops a reply or clears the line; twice, or Ctrl-D, quits (a half-typed line is kept for the next resume).'].join('\n'),
    );
  },
};
