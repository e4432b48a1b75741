/**
 * A REPL host's own words (the adapters, chatkeep's chat): a command as the host types it (its
 * prefix, `.` in node:repl, and its name for a renamed built-in), and an error as the host says
 * it: the plain message, then the advice in the host's words: a command of its list, a
 * subcommand of its program only when the program takes chatkeep's (`HostName.subcommands`),
 * else none. Nothing is rewritten: each line is written once, from the error's data.
 */
import type { Advice } from '../session/api/errors.js';
import { bugLine, errorFacts } from '../terminal/report-error.js';
import { hostCommand, type HostName } from './host.js';
import type { HostWords } from './types.js';

/** The host's command for built-in (or its own) `name`, as typed: `/sessions --all`, `.open ID`; undefined when it has none. */
export function commandIn(words: HostWords, name: string, args: readonly string[] = []): string | undefined {
  const command = words.commands?.find((c) => c.name === name || c.builtinName === name);
  if (!command) return undefined;
  return [`${words.prefix ?? '/'}${command.name}`, ...args].join(' ');
}

/** `advice` in the host's words (`List sessions with: .sessions --all`); undefined when it offers no such command. */
export function adviceIn(words: HostWords, advice: Advice): string | undefined {
  const typed = advice.slash && commandIn(words, advice.slash.name, advice.slash.args);
  if (typed !== undefined) return `${advice.to} ${typed}`;
  if (advice.run && words.host?.subcommands) return `${advice.to} ${hostCommand(words.host, advice.run)}`;
  return undefined;
}

/** The one line a REPL host shows for `err` and carries on after (no program's name before it). */
export function errorLine(err: unknown, words: HostWords): string {
  const facts = errorFacts(err);
  if (facts.bug) return bugLine(facts);
  const advice = facts.advice && adviceIn(words, facts.advice);
  return advice === undefined ? facts.message : `${facts.message} ${advice}`;
}
