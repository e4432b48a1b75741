/**
 * The preview of the highlighted session: what it is (lineage, branch, status, messages, who
 * holds it) and its last exchanges as the chat shows them on resume, fitted to a pane. Stored
 * text is shown safely: control characters are neutralized (docs/design.md §6).
 */
import type { SessionSnapshot } from '../session/data.js';
import type { SessionSummary } from '../session/listing.js';
import { lineage, plural, transcriptTail } from '../terminal/format.js';
import type { Holding } from './rows.js';
import { graphemeWidths, truncate } from '../terminal/table.js';
import { visibleText } from '../text/visible-text.js';

/**
 * `text` as one line with every control character (C0, DEL, C1) shown as a visible stand-in and
 * tabs as spaces, so stored text can never move the cursor or change the terminal.
 */
export function neutralize(text: string): string {
  // One line of the pane: a line end or a tab becomes spaces, every other control character its
  // visible stand-in, as everywhere stored text is shown (visibleText).
  return visibleText(text.replace(/\r\n|\n/g, ' ').replace(/\t/g, '  '));
}

/** Lines of at most `width` columns: long lines are wrapped (by grapheme, by display width). */
export function wrap(line: string, width: number): string[] {
  if (width <= 0) return [];
  const out: string[] = [];
  let current = '';
  let used = 0;
  for (const [segment, w] of graphemeWidths(line)) {
    if (used + w > width) {
      out.push(current);
      current = '';
      used = 0;
    }
    current += segment;
    used += w;
  }
  if (current !== '') out.push(current);
  return out;
}

/** The preview's lines (at most `height`, each at most `width` columns); the newest exchanges are kept when it is too long. */
export function previewLines(
  row: SessionSummary,
  snapshot: SessionSnapshot | undefined,
  options: { width: number; height: number; holding?: Holding | undefined },
): { head: string[]; body: string[] } {
  const { width, holding } = options;
  const head = [
    `${row.id} · ${row.status} · ${plural(row.messageCount, 'message')}`,
    ...(row.branch ? [`branch ${row.branch}`] : []),
    `project ${row.project}`,
    ...(row.parentId !== undefined ? [lineage(row.parentId, row.forkPoint)] : []),
    ...(holding?.by === 'this' ? ['the session of this chat'] : holding ? [`in use by process ${holding.pid} on ${holding.host}`] : []),
  ].map((line) => truncate(neutralize(line), width));
  if (!snapshot) return { head, body: [row.problem ? `cannot be shown: ${row.problem.kind}` : '…'] };
  const tail = transcriptTail(snapshot.messages, { max: 6, maxLines: 6 }).flatMap((line) => wrap(neutralize(line), width));
  const room = Math.max(0, options.height - head.length - 1);
  return { head, body: tail.length > room ? tail.slice(tail.length - room) : tail };
}
