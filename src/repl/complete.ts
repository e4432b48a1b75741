/**
 * Tab completion: slash command names, then each command's own argument completion (session
 * IDs after `/load `, provider names after `/provider `, …).
 */
import { findCommand } from './parse-slash-command.js';
import type { CommandContext, SlashCommand } from './types.js';

/** Completes `line`. Returns readline's `[hits, replaced part]`. */
export async function completeLine(line: string, commands: readonly SlashCommand[], ctx: CommandContext): Promise<[string[], string]> {
  const argument = /^\/(\S+)\s+(\S*)$/.exec(line);
  if (argument) {
    const command = findCommand(argument[1]!, commands);
    const partial = argument[2] ?? '';
    return [command?.complete ? await command.complete(ctx, partial) : [], partial];
  }
  if (/^\/\S*$/.test(line)) {
    const names = commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]).filter((n) => /^[a-z]/.test(n));
    const hits = names.map((n) => `/${n}`).filter((n) => n.startsWith(line.toLowerCase()));
    return [hits.length === 1 ? [`${hits[0]} `] : hits, line];
  }
  return [[], line];
}
