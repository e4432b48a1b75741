/**
 * The browser's list as a person reads it: titles that keep their room at 60, 80 and 120
 * columns (the preview giving way first), column headers, forks under their parents (folded
 * behind a count), what a fork is, the lines an action says and why the list is empty.
 */
import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { arrange, revealed } from '../../../src/browser/families.js';
import { NO_FILTERS } from '../../../src/browser/filters.js';
import { drawFrame, saidLines, type Frame } from '../../../src/browser/layout.js';
import { loadWidths, type Widths } from '../../../src/terminal/table.js';
import type { SessionSnapshot } from '../../../src/session/api/data.js';
import type { SessionSummary } from '../../../src/session/api/listing.js';
import { browserFrame } from '../../helpers/browser-frame.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const TOPICS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];

function session(n: number, extra: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id: `session-20261128-10${String(n).padStart(4, '0')}`,
    title: `Notes on ${TOPICS[n % TOPICS.length]}`,
    createdAt: new Date(NOW.getTime() - (100 - n) * 60_000),
    updatedAt: new Date(NOW.getTime() - (100 - n) * 60_000),
    messageCount: 4,
    status: 'closed',
    project: '/work/project',
    branch: 'master',
    ...extra,
  };
}

/** A parent (4 messages) and two forks of it; the second fork has a fork of its own. */
function family(): SessionSummary[] {
  const parent = session(1, { title: 'Plan the move' });
  const first = session(2, { title: 'Plan the move', parentId: parent.id, forkPoint: 2 });
  const second = session(3, { title: 'Plan the move', parentId: parent.id, forkPoint: 4 });
  const deeper = session(4, { title: 'Plan the move', parentId: second.id, forkPoint: 5 });
  // Newest first, as the listing gives them.
  return [deeper, second, first, parent];
}

function frame(rows: SessionSummary[], columns: number, extra: Partial<Frame> & { open?: ReadonlySet<string> } = {}): Frame {
  const { open, ...rest } = extra;
  return browserFrame(rows, { columns, lines: 24, now: NOW, widths, open }, rest);
}

/** Every line of the screen. */
function screen(f: Frame): string[] {
  const { top, bottom } = drawFrame(f);
  const lines = [...top.split('\n'), ...bottom.split('\n')];
  for (const line of lines) expect(stringWidth(line), line).toBeLessThan(f.columns);
  expect(lines).toHaveLength(f.lines);
  return lines;
}

/** The list's part of a screen line (left of the side pane, when there is one). */
const listPart = (line: string): string => line.split(' │ ')[0]!;

let widths: Widths;
beforeAll(async () => {
  widths = await loadWidths();
});

describe('browser rows', () => {
  it('keeps every title whole beside the preview at 120 columns and without it at 80 and 60 (the branch gives way first)', () => {
    const rows = Array.from({ length: 6 }, (_, i) => session(10 + i));
    for (const [columns, on] of [[120, true], [80, false], [60, false], [80, true]] as const) {
      const lines = screen(frame(rows, columns, { preview: { on, snapshot: undefined } }));
      for (const row of rows) {
        const line = lines.map(listPart).find((l) => l.includes(row.id));
        expect(line, `${columns} columns`).toBeDefined();
        expect(listPart(line!), `${columns} columns`).toContain(row.title!);
      }
    }
    // At 120 the preview is beside the list, narrower than the list's natural rows.
    const wide = screen(frame(rows, 120));
    expect(wide.find((l) => l.includes(rows[0]!.id))).toContain(' │ ');
  });

  it('a long title keeps at least the room the tables give it at every width', () => {
    const long = 'A very long title about the migration of the billing database to the new cluster';
    const rows = [session(1, { title: long })];
    for (const [columns, room] of [[120, 32], [80, 32], [60, 24]] as const) {
      const line = screen(frame(rows, columns)).map(listPart).find((l) => l.includes(rows[0]!.id))!;
      expect(listPart(line), `${columns} columns`).toContain(long.slice(0, room - 1));
    }
  });

  it('has column headers over the rows', () => {
    for (const columns of [120, 80, 60]) {
      const lines = screen(frame([session(1), session(2)], columns));
      expect(lines[3], `${columns} columns`).toMatch(/^ {2}ID +.*title/);
    }
    expect(screen(frame([session(1)], 80))[3]).toMatch(/^ {2}ID +age msgs status +branch +title$/);
  });

  it('lists forks under their parent, folded behind a count; opened, with tree lines and where each parted', () => {
    const rows = family();
    const [deeper, second, first, parent] = rows;
    for (const columns of [120, 80, 60]) {
      const folded = screen(frame(rows, columns)).map(listPart);
      const rootLine = folded.find((l) => l.includes(parent!.id))!;
      expect(rootLine, `${columns}`).toMatch(/Plan the move +\+3 forks/);
      for (const fork of [first, second, deeper]) expect(folded.join('\n')).not.toContain(fork!.id);

      const opened = screen(frame(rows, columns, { open: new Set([parent!.id]) })).map(listPart);
      const at = opened.findIndex((l) => l.includes(parent!.id));
      expect(opened[at]).not.toContain('forks');
      // Oldest fork first, each under the session it came from.
      expect(opened[at + 1]).toContain(first!.id);
      expect(opened[at + 1]).toMatch(/├─ at 2 · Plan the move/);
      expect(opened[at + 2]).toContain(second!.id);
      expect(opened[at + 2]).toMatch(/└─ at 4 · Plan the move/);
      expect(opened[at + 3]).toContain(deeper!.id);
      expect(opened[at + 3]).toMatch(/ {3}└─ at 5 · Plan the move/);
    }
  });

  it('a fork whose parent is not listed (the query or a filter left it out) stands alone and says it is a fork', () => {
    const [deeper, second] = family();
    const entries = arrange([deeper!, second!], { fold: true, open: new Set() });
    // The family of what is listed: the fork of a fork under it, folded.
    expect(entries.map((e) => [e.row.id, e.lead, e.folded])).toEqual([[second!.id, '', 1]]);
    const unfolded = arrange([deeper!, second!], { fold: false, open: new Set() });
    expect(unfolded.map((e) => e.row.id)).toEqual([second!.id, deeper!.id]);
    const line = screen(frame([second!], 80)).find((l) => l.includes(second!.id))!;
    expect(line).toMatch(/fork at 4 · Plan the move/);
  });

  it('stands a family where its most recent member stands, and reveals a folded fork by opening its family', () => {
    const other = session(50, { title: 'Something else', updatedAt: new Date(NOW.getTime() - 30 * 60_000) });
    const rows = [family()[0]!, other, ...family().slice(1)];
    expect(arrange(rows, { fold: true, open: new Set() }).map((e) => e.row.id)).toEqual([family()[3]!.id, other.id]);
    const { at, open } = revealed(rows, family()[0]!.id, { fold: true, open: new Set() });
    expect(open.has(family()[3]!.id)).toBe(true);
    expect(arrange(rows, { fold: true, open })[at]!.row.id).toBe(family()[0]!.id);
  });

  it('previews a fork as the messages on each side of where it parted from its parent', () => {
    const [, second, , parent] = family();
    const messages = ['how do we move?', 'in three steps', 'what first?', 'the database', 'and then?', 'the workers'].map((content, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content,
      timestamp: NOW,
    }));
    const snapshot = { id: second!.id, messages: messages.slice(0, 6) } as unknown as SessionSnapshot;
    for (const columns of [120, 80]) {
      const lines = screen(frame([second!], columns, { preview: { on: true, snapshot } })).map((l) => (columns >= 120 ? (l.split(' │ ')[1] ?? '') : l));
      expect(lines.map((l) => l.trim()).join(' ')).toContain(`forked from ${parent!.id} at message 4`);
      const rule = lines.findIndex((l) => l.includes('parted here'));
      expect(rule, lines.join('\n')).toBeGreaterThan(0);
      expect(lines[rule]).toMatch(/^── parted here, after message 4 ─+$/);
      expect(lines.slice(0, rule).join('\n')).toContain('the database');
      expect(lines.slice(rule + 1).join('\n')).toContain('› and then?');
      expect(lines.slice(0, rule).join('\n')).not.toContain('and then?');
    }
  });

  it('wraps what an action said instead of cutting it: the file name is on the screen', () => {
    const path = '/home/ann/projects/a-rather-long-project-name/exports/session-20261128-100001.md';
    const said = `Exported session-20261128-100001 (4 messages) as md to ${path}`;
    for (const columns of [60, 80, 120]) {
      const lines = screen(frame([session(1)], columns, { message: [said] }));
      const at = lines.findIndex((l) => l.startsWith('Exported'));
      // Broken at spaces (and a path longer than a line where it must): joined again, the whole.
      const joined = lines.slice(at).join('\n');
      expect(joined.replace(/\n(?=\S)/g, (m, i: number) => (joined[i - 1] === ' ' ? '' : ' ')), `${columns}`).toContain(said.slice(0, said.indexOf(path)));
      expect(joined.replace(/\n/g, ''), `${columns}`).toContain(path);
      expect(joined).not.toContain('…');
    }
    expect(saidLines(widths, ['short'], 80)).toEqual(['short', '']);
    const many = saidLines(widths, ['word '.repeat(200)], 60);
    expect(many).toHaveLength(4);
    expect(many[3]).toMatch(/…$/);
  });

  it('says why the list is empty: the query, the filters, or both', () => {
    const rows = [session(1)];
    const byQuery = screen(frame(rows, 80, { query: 'zebra', matched: 0, shown: 0, entries: [] })).join('\n');
    expect(byQuery).toContain('No session matches the query: Backspace or ^U clears it.');
    const byFilter = screen(frame(rows, 80, { shown: 0, entries: [], filters: { ...NO_FILTERS, status: 'open' } })).join('\n');
    expect(byFilter).toContain('No session passes the filters on the line above');
    expect(byFilter).not.toContain('query');
    const both = screen(frame(rows, 80, { query: 'alpha', matched: 3, shown: 0, entries: [], filters: { ...NO_FILTERS, days: 1 } })).join('\n');
    expect(both).toContain('None of the 3 matches passes the filters');
  });
});
