/**
 * The preview of the highlighted session: what it is (lineage, branch, status, messages, who
 * holds it) and its last exchanges as the chat shows them on resume, fitted to a pane; for a
 * fork, the messages on each side of where it parted from its parent instead. Stored
 * text is shown safely: control characters are neutralized (docs/design.md §6).
 */
import type { Message, SessionSnapshot } from '../session/api/data.js';
import type { SessionSummary } from '../session/api/listing.js';
import { formatMessage, lineage, plural, transcriptTail } from '../terminal/format.js';
import type { Holding } from './rows.js';
import type { Widths } from '../terminal/table.js';
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
export function wrap(widths: Widths, line: string, width: number): string[] {
  if (width <= 0) return [];
  const out: string[] = [];
  let current = '';
  let used = 0;
  for (const [segment, w] of widths.graphemeWidths(line)) {
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

/** `line` in lines of at most `width` columns, broken at spaces; a word longer than a line is broken where it must. */
export function wrapWords(widths: Widths, line: string, width: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const joined = current === '' ? word : `${current} ${word}`;
    if (widths.displayWidth(joined) <= width) {
      current = joined;
      continue;
    }
    if (current !== '') out.push(current);
    const pieces = wrap(widths, word, width);
    current = pieces.pop() ?? '';
    out.push(...pieces);
  }
  if (current !== '' || out.length === 0) out.push(current);
  return out;
}

/** The preview's lines (at most `height`, each at most `width` columns); the newest exchanges are kept when it is too long. */
export function previewLines(
  widths: Widths,
  row: SessionSummary,
  snapshot: SessionSnapshot | undefined,
  options: { width: number; height: number; holding?: Holding | undefined; folded?: number },
): { head: string[]; body: string[] } {
  const { width, holding } = options;
  const folded = options.folded ?? 0;
  const head = [
    `${row.id} · ${row.status} · ${plural(row.messageCount, 'message')}`,
    ...(row.branch ? [`branch ${row.branch}`] : []),
    `project ${row.project}`,
    ...(row.parentId !== undefined ? [lineage(row.parentId, row.forkPoint)] : []),
    ...(folded > 0 ? [`${plural(folded, 'fork')} folded under it (→ shows them)`] : []),
    ...(holding?.by === 'this' ? ['the session of this chat'] : holding ? [`in use by process ${holding.pid} on ${holding.host}`] : []),
  ].flatMap((line) => wrapWords(widths, neutralize(line), width));
  if (!snapshot) return { head, body: [row.problem ? `cannot be shown: ${row.problem.kind}` : '…'] };
  const room = Math.max(0, options.height - head.length - 1);
  const lines = (messages: readonly Message[]): string[] => messages.flatMap((m) => formatMessage(m, 3)).flatMap((line) => wrap(widths, neutralize(line), width));
  if (row.parentId !== undefined) return { head, body: partedAt(widths, snapshot.messages, row.forkPoint ?? 0, room, width, lines) };
  const tail = tailOf(widths, snapshot, width);
  return { head, body: tail.length > room ? tail.slice(tail.length - room) : tail };
}

/**
 * The last exchanges of each snapshot previewed, wrapped, per width: every repaint (each key,
 * each search answer) draws the pane again, and wrapping measures every grapheme of it
 * (a few ms a frame, more than the rest of the frame).
 */
const tails = new WeakMap<SessionSnapshot, { width: number; lines: string[] }>();

function tailOf(widths: Widths, snapshot: SessionSnapshot, width: number): string[] {
  const kept = tails.get(snapshot);
  if (kept?.width === width) return kept.lines;
  const lines = transcriptTail(snapshot.messages, { max: 6, maxLines: 6 }).flatMap((line) => wrap(widths, neutralize(line), width));
  tails.set(snapshot, { width, lines });
  return lines;
}

/**
 * A fork's messages on each side of where it parted from its parent: the last it shares (at
 * most a third of the room), a rule, then the first of its own.
 */
function partedAt(widths: Widths, messages: readonly Message[], point: number, room: number, width: number, lines: (messages: readonly Message[]) => string[]): string[] {
  const at = Math.min(point, messages.length);
  const before = lines(messages.slice(Math.max(0, at - 2), at));
  const after = at < messages.length ? lines(messages.slice(at, at + 4)) : ['(nothing said in this fork yet)'];
  // The parent is named in the facts above (`forked from X at message N`): the rule stays short for a narrow pane.
  const said = `── parted here, after message ${at} `;
  const rule = widths.truncate(said + '─'.repeat(Math.max(0, width - said.length)), width);
  const shared = before.slice(Math.max(0, before.length - Math.max(1, Math.floor(room / 3))));
  const earlier = at > 2 ? [`… ${plural(at - 2, 'earlier message')} in common`] : [];
  const above = shared.length + earlier.length + 1 + after.length <= room ? [...earlier, ...shared] : shared;
  return [...(at > 0 ? above : []), rule, ...after].slice(0, room);
}
