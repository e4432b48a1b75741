/** `chatkeep sessions --help` and `sessions X --help`, and the lines `chatkeep --help` gives them, from the list. */
import { formatOptions } from '../option-spec.js';
import { SESSIONS_SUBCOMMANDS } from './index.js';
import { optionsOf } from './options.js';
import { usageLines } from '../usage-lines.js';
import type { SessionsSubcommand, SubcommandGroup } from './subcommand.js';

/**
 * The `chatkeep sessions --help` text, or with `topic` that of one subcommand (its options only).
 * `flow`: for a terminal, each form's text as one line for the wrapper to break to its width.
 */
export function sessionsHelp(topic?: SessionsSubcommand, flow = false): string {
  const shown = topic ? [topic] : SESSIONS_SUBCOMMANDS;
  const notes = [...new Set(shown.flatMap((s) => (s.note !== undefined ? [s.note] : [])))];
  return [
    'Usage:',
    ...shown.flatMap((s) => s.usage.flatMap((form) => usageLines(form, flow))),
    ...notes.flatMap((note) => ['', note]),
    '',
    'Options:',
    ...formatOptions(optionsOf(topic)),
    '',
  ].join('\n');
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
function groupLine(command: string, summary: string): string {
  return `${command.padEnd(42 - 3)}   ${summary}`;
}
