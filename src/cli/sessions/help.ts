/** `chatkeep sessions --help` and `sessions X --help`, and the lines `chatkeep --help` gives them, from the list. */
import { formatOptions, type OptionSpec } from '../option-spec.js';
import { SESSIONS_SUBCOMMANDS } from './index.js';
import { optionsOf } from './options.js';
import type { SessionsSubcommand, SubcommandGroup, UsageForm } from './subcommand.js';

/** Where what a subcommand does begins, on its usage line or below it. */
const TEXT_COLUMN = 44;

/** The `chatkeep sessions --help` text, or with `topic` that of one subcommand (its options only). */
export function sessionsHelp(topic?: SessionsSubcommand): string {
  const shown = topic ? [topic] : SESSIONS_SUBCOMMANDS;
  const notes = [...new Set(shown.flatMap((s) => (s.note !== undefined ? [s.note] : [])))];
  return [
    'Usage:',
    ...shown.flatMap((s) => s.usage.flatMap(usageLines)),
    ...notes.flatMap((note) => ['', note]),
    '',
    'Options:',
    ...formatOptions(optionsOf(topic) as Record<string, OptionSpec>),
    '',
  ].join('\n');
}

/** `  chatkeep sessions show ID [--json]        one session's transcript…`, the text below when the command is long. */
function usageLines(form: UsageForm): string[] {
  const command = `  chatkeep ${form.synopsis}`;
  const indent = ' '.repeat(TEXT_COLUMN);
  const [first, ...rest] = form.text;
  const head = command.length + 2 <= TEXT_COLUMN ? [`${command.padEnd(TEXT_COLUMN)}${first}`] : [command, `${indent}${first}`];
  return [...head, ...rest.map((line) => `${indent}${line}`)];
}

/**
 * The subcommands' lines in `chatkeep --help`: each form shown there, and each group as one line
 * (`chatkeep sessions rm|trash|restore|prune|empty-trash …   the trash`).
 */
export function sessionsOverview(summaryColumn: number): string[] {
  const done = new Set<SubcommandGroup>();
  return SESSIONS_SUBCOMMANDS.flatMap((s) => {
    if (s.group) {
      if (done.has(s.group)) return [];
      done.add(s.group);
      const names = SESSIONS_SUBCOMMANDS.filter((other) => other.group === s.group).map((other) => other.name);
      return [groupLine(`  chatkeep sessions ${names.join('|')}${s.group.args ?? ''} …`, s.group.summary)];
    }
    return s.usage.flatMap((form) => {
      if (form.overview === undefined) return [];
      const command = `  chatkeep ${form.synopsis}`;
      return [form.overview === true ? command : `${command.padEnd(summaryColumn)}${form.overview}`];
    });
  });
}

/** A group's line: its summary from column 42, at least three spaces after the names. */
export function groupLine(command: string, summary: string): string {
  return `${command.padEnd(42 - 3)}   ${summary}`;
}
