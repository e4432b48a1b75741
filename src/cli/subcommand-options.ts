/**
 * Options of a command with subcommands (`chatkeep sessions …`, `chatkeep db …`), made from its
 * option table and the subcommands that take each option: an option's help line names them, and
 * a subcommand saying it takes an option is the one place that lets the parser accept it there.
 */
import type { OptionSpec } from './option-spec.js';

/** An option in the table of a command with subcommands. */
export interface SubcommandOptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  value?: string;
  /** Its help line as it is, naming no subcommand (an option whose meaning is the same everywhere). */
  description?: string;
  /** What it means for each subcommand that takes it with `true`; its help line names them. */
  means?: string;
  /** Taken by every subcommand (none lists it). */
  every?: true;
}

/**
 * How a subcommand takes an option: `true` with the meaning the option table gives it, a string
 * saying what it means here, or `with`: only together with another option (`import --from`).
 */
export type OptionUse<Name extends string = string> = true | string | { with: Name; means?: string };

/** A subcommand as far as its options go. */
export interface TakesOptions {
  name: string;
  options: { readonly [name: string]: OptionUse | undefined };
}

/** A subcommand taking an option, and how. */
export interface Taker<S extends TakesOptions> {
  subcommand: S;
  use: OptionUse;
}

/** A command's option table bound to its list of subcommands. */
export function subcommandOptions<S extends TakesOptions, Name extends string>(table: Readonly<Record<Name, SubcommandOptionSpec>>, subcommands: readonly S[]) {
  const names = Object.keys(table) as Name[];

  /** The subcommands that take `name` (none for an option every one takes), in the list's order, those that take it only with another option last. */
  function takersOf(name: Name): Taker<S>[] {
    const takers = subcommands.flatMap((subcommand) => {
      const use = subcommand.options[name];
      return use === undefined ? [] : [{ subcommand, use }];
    });
    const conditional = (t: Taker<S>): boolean => typeof t.use === 'object';
    return [...takers.filter((t) => !conditional(t)), ...takers.filter(conditional)];
  }

  /** Whether `subcommand` takes the option `name`. */
  function takes(subcommand: S, name: Name): boolean {
    return table[name].every === true || subcommand.options[name] !== undefined;
  }

  /** `prune: last updated longer ago than AGE; empty-trash: trashed longer ago`: what it means for each, naming them (`import --from`: only with --from). */
  function describe(name: Name): string {
    const spec = table[name];
    if (spec.description !== undefined) return spec.description;
    const meanings = new Map<string, string[]>();
    for (const t of takersOf(name)) {
      const meaning = t.use === true ? spec.means : typeof t.use === 'string' ? t.use : (t.use.means ?? spec.means);
      if (meaning === undefined) throw new Error(`${t.subcommand.name} takes --${name} without saying what it means`);
      const label = typeof t.use === 'object' ? `${t.subcommand.name} --${t.use.with}` : t.subcommand.name;
      meanings.set(meaning, [...(meanings.get(meaning) ?? []), label]);
    }
    return [...meanings].map(([meaning, labels]) => `${labels.join(', ')}: ${meaning}`).join('; ');
  }

  /** Every option, in the table's order, each with its help line. */
  const specs = Object.fromEntries(
    names.map((name) => {
      const { type, short, value } = table[name];
      return [name, { type, ...(short !== undefined ? { short } : {}), ...(value !== undefined ? { value } : {}), description: describe(name) }];
    }),
  ) as Record<Name, OptionSpec>;

  return {
    names,
    specs,
    takes,
    /** The options `subcommand` takes, in the table's order (all of them without one). */
    optionsOf(subcommand?: S): Record<string, OptionSpec> {
      return Object.fromEntries(names.filter((name) => !subcommand || takes(subcommand, name)).map((name) => [name, specs[name]]));
    },
    /** `--json is an option of sessions list, show and search`: the line for an option given to a subcommand that does not take it. */
    foreign(command: string, name: Name): string {
      return `--${name} is an option of ${command} ${takersOf(name).map((t) => t.subcommand.name).join(', ').replace(/, ([^,]+)$/, ' and $1')}`;
    },
  };
}
