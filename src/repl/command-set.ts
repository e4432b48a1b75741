/**
 * A host's own command list from the built-in one: commands renamed, dropped or added. /help,
 * "did you mean" and Tab completion read the list the host ends up with.
 */
import type { SlashCommand } from './types.js';

export interface CommandSetChanges {
  /** Built-in names (or aliases) to leave out, e.g. `['model', 'provider', 'system']` for a host without an assistant. */
  drop?: readonly string[];
  /** New names for built-in commands (`{ load: 'open' }`); the old name is no longer an alias. */
  rename?: Readonly<Record<string, string>>;
  /** The host's own commands, listed after the built-in ones (a same-named one replaces the built-in). */
  add?: readonly SlashCommand[];
}

/** `base` (default: every built-in command) with `changes` applied, in /help's order. */
export function commandSet(base: readonly SlashCommand[], changes: CommandSetChanges = {}): SlashCommand[] {
  const named = (c: SlashCommand, names: readonly string[]): boolean => names.includes(c.name) || (c.aliases ?? []).some((a) => names.includes(a));
  const added = changes.add ?? [];
  const kept = base
    .filter((c) => !named(c, changes.drop ?? []))
    .map((c) => {
      const to = changes.rename?.[c.name];
      return to === undefined ? c : { ...c, name: to, builtinName: c.name };
    })
    .filter((c) => !added.some((a) => a.name === c.name));
  return [...kept, ...added];
}
