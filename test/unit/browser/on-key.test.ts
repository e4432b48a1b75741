/**
 * The browser's keys as a pure function (src/browser/on-key.ts): each key's next state and what
 * the view is told to do, with no terminal.
 */
import { describe, expect, it } from 'vitest';
import { arrange } from '../../../src/browser/families.js';
import { NO_FILTERS } from '../../../src/browser/filters.js';
import type { Key } from '../../../src/browser/keys.js';
import { onKey, type KeyState, type KeyView } from '../../../src/browser/on-key.js';
import type { SessionSummary } from '../../../src/session/api/listing.js';

function row(id: string, extra: Partial<SessionSummary> = {}): SessionSummary {
  const at = new Date('2026-11-28T10:00:00Z');
  return { id, title: `title of ${id}`, createdAt: at, updatedAt: at, messageCount: 2, status: 'closed', project: '/p', ...extra };
}

const ROWS = [row('a'), row('b', { parentId: 'a', forkPoint: 1 }), row('c'), row('d')];
const START: KeyState = { query: '', typed: '', mode: 'search', selected: 0, all: false, previewOn: false, filters: NO_FILTERS, open: new Set() };

function view(state: KeyState, rows = ROWS, extra: Partial<KeyView> = {}): KeyView {
  const fold = state.query.trim() === '';
  const entries = arrange(rows, { fold, open: state.open });
  return { entries, entry: entries[state.selected], height: 3, rows, fold, pendingAt: undefined, ...extra };
}

const key = (name: string, ctrl = false): Key => ({ name, ctrl, shift: false }) as Key;

describe('the browser keys', () => {
  it('typing edits the query and puts the highlight back on top; a key that only moves the cursor changes nothing', () => {
    const moved = { ...START, selected: 2 };
    const typed = onKey(moved, key('e'), 'e', view(moved));
    expect(typed.state).toMatchObject({ query: 'e', typed: 'e', selected: 0 });
    expect(typed.effects).toEqual([]);
    const same = onKey(moved, key('x'), '', view(moved));
    expect(same.state.selected).toBe(2);
  });

  it('↑ ↓ PgDn End stay within the list (a folded family is one row)', () => {
    expect(view(START).entries.map((e) => e.row.id)).toEqual(['a', 'c', 'd']);
    expect(onKey(START, key('up'), '', view(START)).state.selected).toBe(0);
    expect(onKey(START, key('pagedown'), '', view(START)).state.selected).toBe(2);
    expect(onKey(START, key('end'), '', view(START)).state.selected).toBe(2);
    // Readline's own take on the key is undone: the line is put back to the query.
    expect(onKey(START, key('down'), '', view(START)).effects).toEqual([{ kind: 'line', text: '' }]);
  });

  it('→ opens the highlighted family and ← folds it, the highlight back on its root', () => {
    const opened = onKey(START, key('right'), '', view(START)).state;
    expect([...opened.open]).toEqual(['a']);
    const onFork = { ...opened, selected: 1 };
    expect(view(onFork).entry?.row.id).toBe('b');
    const folded = onKey(onFork, key('left'), '', view(onFork)).state;
    expect([...folded.open]).toEqual([]);
    expect(folded.selected).toBe(0);
  });

  it('with a query on, ← → move the cursor and every family is open already', () => {
    const searching = { ...START, query: 'ti', typed: 'ti' };
    expect(onKey(searching, key('right'), 'ti', view(searching)).state.open.size).toBe(0);
  });

  it('Enter resumes the highlighted session; Esc, and q on an empty query, cancel', () => {
    const second = { ...START, selected: 1 };
    expect(onKey(second, key('return'), '', view(second)).effects).toEqual([{ kind: 'done', choice: { kind: 'resume', id: 'c' } }]);
    expect(onKey(START, key('escape'), '', view(START)).effects).toEqual([{ kind: 'done', choice: { kind: 'cancel' } }]);
    expect(onKey(START, key('q'), 'q', view(START)).effects).toEqual([{ kind: 'done', choice: { kind: 'cancel' } }]);
    const typing = { ...START, query: 'e', typed: 'e' };
    expect(onKey(typing, key('q'), 'eq', view(typing)).state.query).toBe('eq');
  });

  it('^F and ^X act on the highlighted session; on an empty list nothing is asked', () => {
    const third = { ...START, selected: 2 };
    expect(onKey(third, key('x', true), '', view(third)).effects).toContainEqual({ kind: 'act', action: 'trash', id: 'd' });
    expect(onKey(third, key('f', true), '', view(third)).effects).toContainEqual({ kind: 'act', action: 'fork', id: 'd' });
    expect(onKey(START, key('x', true), '', view(START, [])).effects).toEqual([{ kind: 'line', text: '' }]);
  });

  it('^R edits the title in the line; Enter renames with what was typed and the query comes back; Esc leaves', () => {
    const renaming = onKey({ ...START, query: 'ti', typed: 'ti' }, key('r', true), 'ti', view({ ...START, query: 'ti' }));
    expect(renaming.state).toMatchObject({ mode: 'rename', typed: 'title of a' });
    expect(renaming.effects).toEqual([{ kind: 'line', text: 'title of a' }]);
    const edited = onKey(renaming.state, key('w'), 'New name', view(renaming.state)).state;
    const saved = onKey(edited, key('return'), 'New name', view(edited));
    expect(saved.state).toMatchObject({ mode: 'search', typed: 'ti', query: 'ti' });
    expect(saved.effects).toEqual([{ kind: 'line', text: 'ti' }, { kind: 'act', action: 'rename', id: 'a', text: 'New name' }]);
    const left = onKey(edited, key('escape'), 'New name', view(edited));
    expect(left.effects).toEqual([{ kind: 'line', text: 'ti' }]);
  });

  it('Tab switches the scope and lists again; ^B cycles the branches the listing has', () => {
    const scope = onKey(START, key('tab'), '\t', view(START));
    expect(scope.state.all).toBe(true);
    expect(scope.effects).toContainEqual({ kind: 'relist', all: true });
    const rows = [row('a', { branch: 'main' }), row('c', { branch: 'dev' })];
    expect(onKey(START, key('b', true), '', view(START, rows)).state.filters.branch).toBe('main');
  });

  it('a fork that waited for the query to clear is highlighted when it is cleared, and forgotten', () => {
    const typing = { ...START, query: 'zz', typed: 'zz' };
    const cleared = onKey(typing, key('backspace'), '', view(typing, ROWS, { pendingAt: 2 }));
    expect(cleared.state).toMatchObject({ query: '', selected: 2 });
    expect(cleared.effects).toEqual([{ kind: 'pending-taken' }]);
  });
});
