/**
 * An option described as data, as vitest describes its CLI options (docs/design.md §16): what `parseArgs` needs plus what
 * `--help` shows, how a table of them is printed, and the one-line usage error. The tables
 * themselves (chat-options.ts, sessions-option-table.ts, db/subcommand.ts) build on this leaf.
 */
import { UserError } from '../session/api/errors.js';

/** One option: what `parseArgs` needs plus what `--help` shows. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** Placeholder shown in help, e.g. `ID`. */
  value?: string;
  description: string;
}

/** What `parseArgs` makes of a table: a string or a boolean for each option given. */
export type Parsed<T extends Record<string, Pick<OptionSpec, 'type'>>> = {
  [K in keyof T]?: T[K]['type'] extends 'string' ? string : boolean;
};

/** The help's option lines: the flags, then each description in one column. */
export function formatOptions(specs: Record<string, OptionSpec>): string[] {
  const left = Object.entries(specs).map(([name, spec]) => {
    const flag = `--${name}${spec.value ? ` ${spec.value}` : ''}`;
    return spec.short ? `-${spec.short}, ${flag}` : `    ${flag}`;
  });
  const width = Math.max(...left.map((l) => l.length)) + 2;
  return Object.values(specs).map((spec, i) => `  ${left[i]!.padEnd(width)}${spec.description}`);
}

/** A malformed command line: what was wrong, and the help to read (exit 2). */
export function usage(what: string, help: readonly string[]): UserError {
  // No full stop after the command: it is copied as printed.
  return new UserError(`${what}.`, 'E_USAGE', 2, { to: 'See', run: help });
}
