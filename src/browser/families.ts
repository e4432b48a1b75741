/**
 * The browser's list as families: each fork under the session it was forked from, drawn with
 * tree lines, a family folded behind its root until it is opened. The families are the library's
 * (`familiesOf`, as `sessions tree` draws them); this only orders and flattens them. Pure.
 */
import { familiesOf, type FamilyMember } from '../session/runtime/family.js';
import type { SessionSummary } from '../session/api/listing.js';

/** One line of the list. */
export interface Entry {
  row: SessionSummary;
  /** Tree lines before the title (`├─ `, `│  └─ `); empty at a family's root. */
  lead: string;
  /** How many forks are folded away under this root (0 when none or open). */
  folded: number;
  /** The root of its family among the rows listed (what → and ← open and fold). */
  root: string;
}

/**
 * `shown` (in the order the listing or the search gave) as families: a family stands where its
 * first member in that order stands, root first, each fork under its parent, oldest first. Only
 * members among `shown` count: a fork whose parent is not listed (filtered out, not matched, in
 * another project or gone) is the root of what remains. With `fold`, a family not in `open`
 * shows its root alone.
 */
export function arrange(shown: readonly SessionSummary[], options: { fold: boolean; open: ReadonlySet<string> }): Entry[] {
  // Only forks and the parents they hang from make families of more than one: the families are
  // made of those rows alone (the same families: every link is between two of them), and every
  // other row is a family of its own, so 100,000 rows without forks cost one pass, not a tree each.
  const kin = linked(shown);
  const byId = new Map(kin.map((row) => [row.id, row]));
  const rootOf = new Map<string, FamilyMember>();
  const size = new Map<string, number>();
  for (const family of familiesOf(kin)) {
    let count = 0;
    const mark = (member: FamilyMember): void => {
      rootOf.set(member.id, family);
      count++;
      for (const child of member.children) mark(child);
    };
    mark(family);
    size.set(family.id, count);
  }
  const entries: Entry[] = [];
  const placed = new Set<string>();
  for (const row of shown) {
    const family = rootOf.get(row.id);
    if (!family) {
      entries.push({ row, lead: '', folded: 0, root: row.id });
      continue;
    }
    if (placed.has(family.id)) continue;
    placed.add(family.id);
    const forks = size.get(family.id)! - 1;
    if (options.fold && forks > 0 && !options.open.has(family.id)) {
      entries.push({ row: byId.get(family.id)!, lead: '', folded: forks, root: family.id });
      continue;
    }
    const draw = (member: FamilyMember, lead: string, branch: string): void => {
      entries.push({ row: byId.get(member.id)!, lead: branch, folded: 0, root: family.id });
      member.children.forEach((child, i) => {
        const last = i === member.children.length - 1;
        draw(child, `${lead}${last ? '   ' : '│  '}`, `${lead}${last ? '└─ ' : '├─ '}`);
      });
    };
    draw(family, '', '');
  }
  return entries;
}

/** The rows of `shown` (in its order) that are a fork of another row of it, or that row: those in a family of more than one. */
function linked(shown: readonly SessionSummary[]): SessionSummary[] {
  const parents = new Set<string>();
  for (const row of shown) if (row.parentId !== undefined) parents.add(row.parentId);
  if (parents.size === 0) return [];
  const present = new Set<string>();
  for (const row of shown) if (parents.has(row.id)) present.add(row.id);
  return shown.filter((row) => present.has(row.id) || (row.parentId !== undefined && present.has(row.parentId)));
}

/** Where `id` is in `entries`, its family opened first when it is folded away. */
export function revealed(shown: readonly SessionSummary[], id: string, options: { fold: boolean; open: ReadonlySet<string> }): { at: number; open: ReadonlySet<string> } {
  const root = arrange(shown, { fold: false, open: options.open }).find((entry) => entry.row.id === id)?.root;
  const open = root === undefined || options.open.has(root) ? options.open : new Set([...options.open, root]);
  return { at: arrange(shown, { ...options, open }).findIndex((entry) => entry.row.id === id), open };
}
