/** The browser's keys: what each does, and what the query line says in each mode. Pure. */

/** A key as @inquirer/core reports it. */
export type Key = import('@inquirer/core').KeypressEvent;

/** Typing a query, a new title, or the file to export to. */
export type Mode = 'search' | 'rename' | 'export';

export const LABELS: Record<Mode, string> = {
  search: 'Search: ',
  rename: 'Rename to (Enter saves, Esc leaves): ',
  export: 'Export to file (.json, .md, .html; Enter writes): ',
};

export type Command = 'up' | 'down' | 'pageup' | 'pagedown' | 'home' | 'end' | 'scope' | 'preview' | 'branch' | 'status' | 'age' | 'fork' | 'trash' | 'rename' | 'export' | 'unfold' | 'fold';

/**
 * The browser's own keys; undefined for a key that edits the query. → and ← open and fold a
 * family only while the query is empty: in a query they move the cursor, as at the prompt.
 */
export function commandFor(key: Key, query: string): Command | undefined {
  const plain: Record<string, Command> = { up: 'up', down: 'down', pageup: 'pageup', pagedown: 'pagedown', home: 'home', end: 'end', tab: 'scope' };
  const withCtrl: Record<string, Command> = { o: 'preview', b: 'branch', t: 'status', g: 'age', f: 'fork', x: 'trash', r: 'rename', e: 'export' };
  const folding: Record<string, Command> = query === '' ? { right: 'unfold', left: 'fold' } : {};
  return key.ctrl ? withCtrl[key.name] : (plain[key.name] ?? folding[key.name]);
}
