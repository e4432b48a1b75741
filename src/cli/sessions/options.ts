/**
 * The options of `chatkeep sessions …` as `parseArgs` and `--help` take them, made from the option
 * table and the subcommands that take each option: an option's help line names them, and saying
 * that a subcommand takes an option is the one place that lets the parser accept it there.
 */
import type { OptionSpec } from '../option-spec.js';
import { SESSIONS_SUBCOMMANDS } from './index.js';
import { SESSIONS_OPTION_TABLE, type SessionsOptionName, type SessionsOptionSpec } from './option-table.js';
import type { OptionUse, SessionsSubcommand } from './subcommand.js';

/** A subcommand taking an option, and how. */
interface Taker {
  subcommand: SessionsSubcommand;
  use: OptionUse;
}

const NAMES = Object.keys(SESSIONS_OPTION_TABLE) as SessionsOptionName[];
const spec = (name: SessionsOptionName): SessionsOptionSpec => SESSIONS_OPTION_TABLE[name];

/**
 * The subcommands that take `name` (none for an option every one takes), in the order of the
 * list, those that take it only with another option (`import --from`) last.
 */
export function takersOf(name: SessionsOptionName): Taker[] {
  const takers = SESSIONS_SUBCOMMANDS.flatMap((subcommand) => {
    const use = subcommand.options[name];
    return use === undefined ? [] : [{ subcommand, use }];
  });
  const conditional = (t: Taker): boolean => typeof t.use === 'object';
  return [...takers.filter((t) => !conditional(t)), ...takers.filter(conditional)];
}

/** Whether `subcommand` takes the option `name`. */
export function takes(subcommand: SessionsSubcommand, name: SessionsOptionName): boolean {
  return spec(name).every === true || subcommand.options[name] !== undefined;
}

/** `import --all goes with --from` in a help line: `import --from`. */
function label(t: Taker): string {
  return typeof t.use === 'object' ? `${t.subcommand.name} --${t.use.with}` : t.subcommand.name;
}

/** `prune: last updated longer ago than AGE; empty-trash: trashed longer ago`: what it means for each, naming them. */
function describe(name: SessionsOptionName): string {
  const table = spec(name);
  if (table.description !== undefined) return table.description;
  const meanings = new Map<string, string[]>();
  for (const t of takersOf(name)) {
    const meaning = t.use === true ? table.means : typeof t.use === 'string' ? t.use : (t.use.means ?? table.means);
    if (meaning === undefined) throw new Error(`sessions ${t.subcommand.name} takes --${name} without saying what it means`);
    meanings.set(meaning, [...(meanings.get(meaning) ?? []), label(t)]);
  }
  return [...meanings].map(([meaning, labels]) => `${labels.join(', ')}: ${meaning}`).join('; ');
}

/** Every option of `chatkeep sessions …`, in the table's order, each with its help line. */
export const SESSIONS_OPTIONS: Record<SessionsOptionName, OptionSpec> = Object.fromEntries(
  NAMES.map((name) => {
    const { type, short, value } = spec(name);
    return [name, { type, ...(short !== undefined ? { short } : {}), ...(value !== undefined ? { value } : {}), description: describe(name) }];
  }),
) as Record<SessionsOptionName, OptionSpec>;

/** The options `subcommand` takes, in the table's order (all of them without one). */
export function optionsOf(subcommand?: SessionsSubcommand): Partial<Record<SessionsOptionName, OptionSpec>> {
  return Object.fromEntries(NAMES.filter((name) => !subcommand || takes(subcommand, name)).map((name) => [name, SESSIONS_OPTIONS[name]]));
}
