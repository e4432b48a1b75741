/**
 * A session's family drawn with tree lines (`chatkeep sessions tree`, `/tree`): one line per
 * member, its forks below it, each line fitted to the width by cutting its title, so a deep or
 * long-titled family never wraps. Pure: measured with the `Widths` it is given.
 */
import type { FamilyMember } from '../session/runtime/family.js';
import { plural } from '../text/plural.js';
import { visibleText } from '../text/visible-text.js';
import { shortAge } from './format.js';
import type { Widths } from './table.js';

/** The columns a tree is fitted to where the output is not a terminal (a pipe, a file). */
export const TREE_COLUMNS = 80;

/** What marks the session the tree was asked for, at the end of its line's facts. */
export const ASKED_MARK = '◀';

/** The family's lines, root first, each at most `width` columns. */
export function familyLines(root: FamilyMember, options: { now: Date; width?: number; widths: Widths }): string[] {
  const width = options.width ?? TREE_COLUMNS;
  const { truncate } = options.widths;
  const lines: string[] = [];
  const draw = (member: FamilyMember, lead: string, branch: string): void => {
    lines.push(memberLine(options.widths, member, branch, width, options.now));
    // A lost parent is said on a line of its own: the ID is long, and the title keeps its room.
    if (member.parentGone !== undefined) lines.push(truncate(`${lead}${member.children.length > 0 ? '│  ' : '   '}(forked from ${member.parentGone}, which is gone)`, width));
    member.children.forEach((child, i) => {
      const last = i === member.children.length - 1;
      draw(child, `${lead}${last ? '   ' : '│  '}`, `${lead}${last ? '└─ ' : '├─ '}`);
    });
  };
  draw(root, '', '');
  return lines;
}

/** `├─ ID  at 4 · 6 messages · 5m ago ◀  title  (in the trash)`, the title cut to fit. */
function memberLine(widths: Widths, member: FamilyMember, branch: string, width: number, now: Date): string {
  const { displayWidth, truncate } = widths;
  const facts = [
    ...(member.forkPoint !== null ? [`at ${member.forkPoint}`] : []),
    plural(member.messageCount, 'message'),
    shortAge(member.updatedAt, now),
  ].join(' · ');
  const head = `${branch}${member.id}  ${facts}${member.asked ? ` ${ASKED_MARK}` : ''}`;
  const tail = member.trashed ? '  (in the trash)' : '';
  const title = visibleText(member.title ?? '(untitled)');
  const room = width - displayWidth(head) - displayWidth(tail) - 2;
  if (room >= 4) return `${head}  ${truncate(title, room)}${tail}`;
  // Too deep for a title: the facts and notes alone, cut at the edge.
  return truncate(`${head}${tail}`, width);
}
