/** Looking a model up in a table of known models (prices, context windows). */

/** `table`'s entry for `model`: its exact name, or its name with a date suffix (`gpt-4o-mini-2024-07-18`, `-latest`); else undefined. */
export function lookupModel<T>(table: Readonly<Record<string, T>>, model: string): T | undefined {
  if (Object.hasOwn(table, model)) return table[model];
  const base = /^(.+?)(-\d{4}-?\d{2}-?\d{2}|-latest)$/.exec(model)?.[1];
  return base !== undefined && Object.hasOwn(table, base) ? table[base] : undefined;
}
