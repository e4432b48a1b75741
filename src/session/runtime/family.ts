/**
 * A session's family: the session it descends from at the top, and every fork below it, each
 * under the session it was forked from. Built from listing rows and the trash (both carry
 * `parentId` and `forkPoint`), so no session file is opened. Pure.
 */
import type { SessionSummary } from '../api/listing.js';
import type { SessionManager } from './manager-api.js';
import type { TrashedSession } from '../format/store.js';

/** One member of a family, with its forks, oldest first. */
export interface FamilyMember {
  id: string;
  title: string | null;
  /** How many of its parent's messages it started with; null at the root. */
  forkPoint: number | null;
  messageCount: number;
  updatedAt: Date;
  /** In the trash: still a member (its forks hang from it), shown as trashed. */
  trashed?: boolean;
  /** At the root: the session it was forked from, which is neither listed nor in the trash any more. */
  parentGone?: string;
  /** The session the family was asked for. */
  asked?: boolean;
  children: FamilyMember[];
}

interface Known {
  id: string;
  title: string | null;
  parentId?: string;
  forkPoint?: number;
  messageCount: number;
  updatedAt: Date;
  /** For ordering forks: when they were made (trashed sessions: their last update). */
  since: number;
  trashed: boolean;
}

/** Every known session, and the forks of each (those whose parent is known). */
interface Kin {
  known: Map<string, Known>;
  forks: Map<string, Known[]>;
}

function kinOf(rows: readonly SessionSummary[], trash: readonly TrashedSession[]): Kin {
  const known = new Map<string, Known>();
  for (const t of trash) known.set(t.id, fromTrash(t));
  for (const r of rows) known.set(r.id, fromRow(r));
  const forks = new Map<string, Known[]>();
  for (const k of known.values()) {
    if (k.parentId === undefined || !known.has(k.parentId)) continue;
    forks.set(k.parentId, [...(forks.get(k.parentId) ?? []), k]);
  }
  return { known, forks };
}

/** `top` as the root of a family, every fork below it not yet in `seen` (a cycle is broken where it closes). */
function grow(kin: Kin, top: Known, asked: string | undefined, seen: Set<string>): FamilyMember {
  const member = (k: Known, root: boolean): FamilyMember => {
    seen.add(k.id);
    const children = (kin.forks.get(k.id) ?? []).filter((c) => !seen.has(c.id)).sort((a, b) => a.since - b.since);
    return {
      id: k.id,
      title: k.title,
      forkPoint: root ? null : (k.forkPoint ?? 0),
      messageCount: k.messageCount,
      updatedAt: k.updatedAt,
      ...(k.trashed ? { trashed: true } : {}),
      ...(root && k.parentId !== undefined && !kin.known.has(k.parentId) ? { parentGone: k.parentId } : {}),
      ...(k.id === asked ? { asked: true } : {}),
      children: children.map((c) => member(c, false)),
    };
  };
  return member(top, true);
}

/**
 * The family of `id` from its root: walks up through parents while they are known, then down
 * through every fork. A cycle (which only hand-edited files can make) is broken where it closes.
 */
export function familyOf(id: string, rows: readonly SessionSummary[], trash: readonly TrashedSession[]): FamilyMember {
  const kin = kinOf(rows, trash);
  let top = kin.known.get(id);
  if (!top) throw new Error(`familyOf: ${id} is neither listed nor in the trash`);
  const above = new Set([top.id]);
  while (top.parentId !== undefined && kin.known.has(top.parentId) && !above.has(top.parentId)) {
    top = kin.known.get(top.parentId)!;
    above.add(top.id);
  }
  return grow(kin, top, id, new Set());
}

/**
 * Every family among `rows`, each from its root (a row whose parent is not among them is a root:
 * its `parentGone` names that parent), in the order of `rows`' roots. Each row is in exactly one
 * family (the members of a cycle under the first of them met). One pass: cheap for a whole listing.
 */
export function familiesOf(rows: readonly SessionSummary[]): FamilyMember[] {
  const kin = kinOf(rows, []);
  const seen = new Set<string>();
  const roots: FamilyMember[] = [];
  for (const k of kin.known.values()) if (k.parentId === undefined || !kin.known.has(k.parentId)) roots.push(grow(kin, k, undefined, seen));
  for (const k of kin.known.values()) if (!seen.has(k.id)) roots.push(grow(kin, k, undefined, seen));
  return roots;
}

/**
 * The family of a session (ID or unique prefix, any project; a trashed session by its full ID)
 * as `sessions` lists it: every project's rows, the empty ones too, and the trash.
 */
export async function readFamily(sessions: SessionManager, idOrPrefix: string): Promise<FamilyMember> {
  const trash = await sessions.listTrash();
  const trashed = trash.find((t) => t.id === idOrPrefix);
  const id = trashed ? trashed.id : (await sessions.resolve(idOrPrefix)).id;
  return familyOf(id, await sessions.list({ all: true, empty: true }), trash);
}

/** How many members a family has. */
export function familySize(member: FamilyMember): number {
  return member.children.reduce((n, child) => n + familySize(child), 1);
}

function fromRow(r: SessionSummary): Known {
  return {
    id: r.id,
    title: r.title ?? r.derivedTitle ?? null,
    ...(r.parentId !== undefined ? { parentId: r.parentId, forkPoint: r.forkPoint ?? 0 } : {}),
    messageCount: r.messageCount,
    updatedAt: r.updatedAt,
    since: r.createdAt.getTime(),
    trashed: false,
  };
}

function fromTrash(t: TrashedSession): Known {
  const updatedAt = t.updatedAt ?? t.trashedAt;
  return {
    id: t.id,
    title: t.title,
    ...(t.parentId !== undefined ? { parentId: t.parentId, forkPoint: t.forkPoint ?? 0 } : {}),
    messageCount: t.messageCount,
    updatedAt,
    since: updatedAt.getTime(),
    trashed: true,
  };
}
