/**
 * A command's advice in the host's own words: a host may type commands with another prefix
 * (`.load` in node:repl) and rename them (`commandSet(base, { rename: { load: 'open' } })`), so
 * `/load ID` in a result or an error is written as the host's list has it (`.open ID`).
 */
import type { SlashCommand } from './types.js';

/** `text` with every `/name` of a listed command (by its built-in name, its name or an alias) written as `prefix` + the host's name for it. */
export function inHostWords(text: string, commands: readonly SlashCommand[], prefix: string): string {
  const hostName = new Map<string, string>();
  for (const c of commands) {
    for (const said of [c.name, ...(c.aliases ?? [])]) hostName.set(said, said);
  }
  // A renamed built-in's old name is advice to write anew, unless the host uses that name itself.
  for (const c of commands) {
    if (c.builtinName !== undefined && !hostName.has(c.builtinName)) hostName.set(c.builtinName, c.name);
  }
  const said = [...hostName.keys()].filter((n) => /^[a-z][a-z-]*$/.test(n));
  if (said.length === 0 || (prefix === '/' && said.every((n) => hostName.get(n) === n))) return text;
  return text.replace(new RegExp(`(^|[\\s(\`])/(${said.join('|')})(?![\\w-])`, 'gm'), (_all, before: string, name: string) => `${before}${prefix}${hostName.get(name)}`);
}
