/**
 * What a key does in the browser, as a pure function: the state the keys change, the key and the
 * prompt's line after readline took it, and what is on screen, in; the changed state and what the
 * view must do (put text in the line, end the prompt, run an action, list again), out. The view
 * (view.ts) holds the state in hooks and carries the effects out; what the searches, previews and
 * actions answer later is the view's, not this.
 */
import { nextAge, nextBranch, nextStatus, type Filters } from './filters.js';
import type { Entry } from './families.js';
import { commandFor, type Key, type Mode } from './keys.js';
import type { BrowseChoice } from './config.js';
import type { SessionSummary } from '../session/api/listing.js';

/** What the keys change. */
export interface KeyState {
  /** The query as typed (searched trimmed). */
  query: string;
  /** What the prompt's line holds in the mode: the query, a new title, a file name. */
  typed: string;
  mode: Mode;
  /** The highlighted entry's index. */
  selected: number;
  /** Every project (Tab), or this one. */
  all: boolean;
  previewOn: boolean;
  filters: Filters;
  /** The families opened with → (by their root's ID). */
  open: ReadonlySet<string>;
}

/** What the key acts on: the screen as it stands. */
export interface KeyView {
  entries: readonly Entry[];
  /** The highlighted entry (undefined on an empty list). */
  entry: Entry | undefined;
  /** Rows of the list's height (a page for PgUp and PgDn). */
  height: number;
  /** The scope's listing (the branches the branch filter cycles through). */
  rows: readonly SessionSummary[];
  /** Families fold (no query, no filter). */
  fold: boolean;
  /** Where a fork made while a query was typed stands once the query is cleared; undefined when none waits. */
  pendingAt: number | undefined;
}

/** What the view carries out. */
export type Effect =
  | { kind: 'line'; text: string }
  | { kind: 'done'; choice: BrowseChoice }
  | { kind: 'act'; action: 'fork' | 'trash'; id: string }
  | { kind: 'act'; action: 'rename' | 'export'; id: string; text: string }
  | { kind: 'relist'; all: boolean }
  | { kind: 'message'; lines: string[] }
  /** The waiting fork was highlighted: forget it. */
  | { kind: 'pending-taken' };

export interface KeyOutcome {
  state: KeyState;
  effects: Effect[];
}

/** The next state and effects after `key`; `line` is the prompt's line once readline has taken the key. */
export function onKey(state: KeyState, key: Key, line: string, view: KeyView): KeyOutcome {
  return state.mode === 'search' ? searching(state, key, line, view) : editing(state, key, line, view);
}

/** Typing a new title or a file name: Enter runs the action on the highlighted session, Esc leaves. */
function editing(state: KeyState, key: Key, line: string, view: KeyView): KeyOutcome {
  const back = { ...state, mode: 'search' as const, typed: state.query };
  if (key.name === 'escape') return { state: back, effects: [{ kind: 'line', text: state.query }] };
  if (key.name === 'return' || key.name === 'enter') {
    const current = view.entry?.row;
    const effects: Effect[] = [{ kind: 'line', text: state.query }];
    if (current && state.mode !== 'search') effects.push({ kind: 'act', action: state.mode, id: current.id, text: state.typed });
    return { state: back, effects };
  }
  // A tab typed into a title or a file name is not kept.
  if (key.name === 'tab') return { state, effects: [{ kind: 'line', text: state.typed }] };
  return { state: { ...state, typed: line }, effects: [] };
}

function searching(state: KeyState, key: Key, line: string, view: KeyView): KeyOutcome {
  const current = view.entry?.row;
  if (key.name === 'escape') return done(state, { kind: 'cancel' });
  if (key.name === 'q' && !key.ctrl && state.query === '' && line === 'q') return done(state, { kind: 'cancel' });
  if (key.name === 'return' || key.name === 'enter') {
    if (current) return done(state, { kind: 'resume', id: current.id });
    return { state, effects: [{ kind: 'line', text: state.query }] };
  }
  const command = commandFor(key, state.query);
  if (command === undefined) {
    // A key that edits the query: the highlight goes to the top, or to a fork that waited for the query to clear.
    if (line === state.query) return { state: { ...state, typed: line }, effects: [] };
    const cleared = line.trim() === '' && view.pendingAt !== undefined;
    const selected = cleared ? Math.max(0, view.pendingAt!) : 0;
    return { state: { ...state, query: line, typed: line, selected }, effects: cleared ? [{ kind: 'pending-taken' }] : [] };
  }
  // Readline took the key as editing (a tab typed, the cursor moved): the query stays as it was.
  const effects: Effect[] = [{ kind: 'line', text: state.query }];
  const at = (selected: number): KeyOutcome => ({ state: { ...state, selected: Math.max(0, Math.min(view.entries.length - 1, selected)) }, effects });
  const with_ = (patch: Partial<KeyState>, ...more: Effect[]): KeyOutcome => ({ state: { ...state, ...patch }, effects: [...effects, ...more] });
  const page = Math.max(1, view.height - 1);
  switch (command) {
    case 'up': return at(state.selected - 1);
    case 'down': return at(state.selected + 1);
    case 'pageup': return at(state.selected - page);
    case 'pagedown': return at(state.selected + page);
    case 'home': return at(0);
    case 'end': return at(view.entries.length - 1);
    case 'scope': {
      const all = !state.all;
      return with_({ all, selected: 0 }, { kind: 'message', lines: [all ? 'Every project.' : 'This project only.'] }, { kind: 'relist', all });
    }
    case 'preview': return with_({ previewOn: !state.previewOn });
    case 'unfold':
    case 'fold': {
      const entry = view.entry;
      if (!entry) return with_({});
      if (!view.fold) return with_({}, { kind: 'message', lines: ['With a query or a filter on, every family is open.'] });
      const open = new Set(state.open);
      if (command === 'unfold') open.add(entry.root);
      else open.delete(entry.root);
      // Folding moves the highlight to the family's root (which stays where it is).
      if (command === 'unfold') return with_({ open });
      const root = view.entries.findIndex((e) => e.row.id === entry.root);
      return with_({ open, selected: Math.max(0, Math.min(view.entries.length - 1, root)) });
    }
    case 'branch': return with_({ filters: { ...state.filters, branch: nextBranch(view.rows, state.filters.branch) } });
    case 'status': return with_({ filters: { ...state.filters, status: nextStatus(state.filters.status) } });
    case 'age': return with_({ filters: { ...state.filters, days: nextAge(state.filters.days) } });
    case 'fork':
    case 'trash':
      return current ? with_({}, { kind: 'act', action: command, id: current.id }) : with_({});
    case 'rename':
    case 'export': {
      if (!current) return with_({});
      const text = command === 'rename' ? (current.title ?? '') : `${current.id}.json`;
      return { state: { ...state, mode: command, typed: text }, effects: [{ kind: 'line', text }] };
    }
  }
}

function done(state: KeyState, choice: BrowseChoice): KeyOutcome {
  return { state, effects: [{ kind: 'done', choice }] };
}
