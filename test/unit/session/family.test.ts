import { describe, expect, it } from 'vitest';
import { familiesOf, familyOf, familySize } from '../../../src/session/runtime/family.js';
import type { SessionSummary } from '../../../src/session/api/listing.js';

const at = (minute: number): Date => new Date(Date.UTC(2026, 10, 28, 10, minute));

function row(id: string, minute: number, parent?: [string, number]): SessionSummary {
  return {
    id, title: id, createdAt: at(minute), updatedAt: at(minute), messageCount: 2, status: 'closed', project: '/p',
    ...(parent ? { parentId: parent[0], forkPoint: parent[1] } : {}),
  };
}

describe('familyOf', () => {
  it('climbs to the root and lists forks oldest first, under their parents', () => {
    const rows = [row('r', 0), row('late', 9, ['r', 1]), row('early', 1, ['r', 2]), row('deep', 5, ['early', 3])];
    const root = familyOf('deep', rows, []);
    expect(root.id).toBe('r');
    expect(root.children.map((c) => c.id)).toEqual(['early', 'late']);
    expect(root.children[0]!.children[0]).toMatchObject({ id: 'deep', forkPoint: 3, asked: true });
    expect(familySize(root)).toBe(4);
  });

  it('breaks a cycle that only hand-edited files can make, where it closes', () => {
    const root = familyOf('x', [row('x', 0, ['y', 1]), row('y', 1, ['x', 1])], []);
    expect(familySize(root)).toBe(2);
    expect(root.forkPoint).toBeNull();
  });

  it('keeps a trashed parent in the family, and notes a parent that is gone', () => {
    const trash = [{ id: 'gone-child', project: '/p', title: 't', trashedAt: at(3), messageCount: 1, parentId: 'vanished', forkPoint: 1 }];
    const root = familyOf('kid', [row('kid', 4, ['gone-child', 1])], trash);
    expect(root).toMatchObject({ id: 'gone-child', trashed: true, parentGone: 'vanished', children: [{ id: 'kid', forkPoint: 1 }] });
  });
});

describe('familiesOf', () => {
  it('puts every row in exactly one family, in one pass: forks under their parents, a cycle under its first member met', () => {
    const rows = [row('late', 9, ['r', 1]), row('r', 0), row('alone', 2), row('x', 3, ['y', 1]), row('y', 4, ['x', 1]), row('orphan', 5, ['missing', 2])];
    const families = familiesOf(rows);
    expect(families.map((f) => f.id)).toEqual(['r', 'alone', 'orphan', 'x']);
    expect(families.reduce((n, f) => n + familySize(f), 0)).toBe(rows.length);
    expect(families[0]!.children.map((c) => c.id)).toEqual(['late']);
    expect(families[2]).toMatchObject({ forkPoint: null, parentGone: 'missing' });
    expect(families[3]!.children.map((c) => c.id)).toEqual(['y']);
  });
});
