import { describe, expect, it } from 'vitest';
import { familyOf, familySize } from '../../../src/session/family.js';
import type { SessionSummary } from '../../../src/session/listing.js';

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
