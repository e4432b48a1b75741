/** A subcommand's forms in `--help` (`chatkeep sessions …`, `chatkeep db …`), laid out one way. */

/** One form of a subcommand: the command (after `chatkeep `) and what it does. */
export interface UsageForm {
  synopsis: string;
  text: readonly string[];
  /** Shown in `chatkeep --help` too: `true` as it is, a string as its one-line summary there. */
  overview?: true | string;
}

/** Where what a subcommand does begins, on its usage line or below it. */
const TEXT_COLUMN = 44;

/**
 * `  chatkeep sessions show ID [--json]        one session's transcript…`, the text below when the
 * command is long. With `flow` (a terminal, where the wrapper breaks it to the width) the text is
 * one line rather than the lines it is written in for a pipe.
 */
export function usageLines(form: UsageForm, flow = false): string[] {
  const command = `  chatkeep ${form.synopsis}`;
  const indent = ' '.repeat(TEXT_COLUMN);
  const [first, ...rest] = flow ? [form.text.join(' ')] : form.text;
  const head = command.length + 2 <= TEXT_COLUMN ? [`${command.padEnd(TEXT_COLUMN)}${first}`] : [command, `${indent}${first}`];
  return [...head, ...rest.map((line) => `${indent}${line}`)];
}
