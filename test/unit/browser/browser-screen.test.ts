import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { filterLine, nextAge, nextBranch, nextStatus, NO_FILTERS, passes } from '../../../src/browser/filters.js';
import { drawFrame, listHeight, scrolled, type Frame } from '../../../src/browser/layout.js';
import { neutralize, previewLines } from '../../../src/browser/preview.js';
import { shortAge } from '../../../src/browser/rows.js';
import { loadWidths, type Widths } from '../../../src/terminal/table.js';
import type { SessionSnapshot } from '../../../src/session/api/data.js';
import type { SessionSummary } from '../../../src/session/api/listing.js';
import { browserFrame } from '../../helpers/browser-frame.js';

const NOW = new Date('2026-11-25T12:00:00Z');

function row(i: number, extra: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id: `session-20261125-${String(i).padStart(6, '0')}`,
    title: `title ${i} 数据 🚀`,
    createdAt: new Date(NOW.getTime() - i * 3_600_000),
    updatedAt: new Date(NOW.getTime() - i * 3_600_000),
    messageCount: i,
    status: 'closed',
    project: '/work/project',
    ...extra,
  };
}

function frame(rows: SessionSummary[], columns: number, lines: number, extra: Partial<Frame> = {}): Frame {
  return browserFrame(rows, { columns, lines, now: NOW, widths }, extra);
}

let widths: Widths;
beforeAll(async () => {
  widths = await loadWidths();
});

describe('browser screen', () => {
  it('fills exactly the terminal, every line within its width, at 80×24, 60×20 and 200×50, preview on and off', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => row(i));
    for (const [columns, lines] of [[80, 24], [60, 20], [200, 50]] as const) {
      for (const on of [true, false]) {
        const { top, bottom } = drawFrame(frame(rows, columns, lines, { preview: { on, snapshot: undefined }, message: ['one', 'two'] }));
        const all = [...top.split('\n'), ...bottom.split('\n')];
        expect(all).toHaveLength(lines);
        for (const line of all) expect(stringWidth(line), `${columns}×${lines} ${line}`).toBeLessThan(columns);
        expect(top.split('\n').at(-1)).toBe('Search: ');
      }
    }
  });

  it('scrolls as little as needed to keep the highlight on screen', () => {
    expect(scrolled(0, 5, 10, 100)).toBe(0);
    expect(scrolled(0, 12, 10, 100)).toBe(3);
    expect(scrolled(20, 12, 10, 100)).toBe(12);
    expect(scrolled(95, 99, 10, 100)).toBe(90);
    // 24 lines less heading, filters, query, column headers, two lines of keys and two of message.
    expect(listHeight(widths, 80, 24, false)).toBe(16);
    expect(listHeight(widths, 80, 24, true)).toBeLessThan(16);
  });

  it('filters by branch, status and age, and says which are on', () => {
    const rows = [row(1, { branch: 'main' }), row(30, { branch: 'fix', status: 'interrupted' }), row(24 * 40, { status: 'open' })];
    expect(nextBranch(rows, null)).toBe('main');
    expect(nextBranch(rows, 'main')).toBe('fix');
    expect(nextBranch(rows, 'fix')).toBeNull();
    expect(nextStatus(null)).toBe('open');
    expect(nextStatus('interrupted')).toBeNull();
    expect(nextAge(null)).toBe(1);
    const filters = { branch: null, status: null, days: 7 };
    expect(rows.filter((r) => passes(r, filters, NOW)).map((r) => r.messageCount)).toEqual([1, 30]);
    expect(rows.filter((r) => passes(r, { ...NO_FILTERS, status: 'interrupted' }, NOW))).toHaveLength(1);
    expect(filterLine(NO_FILTERS)).toMatch(/^Filters: none /);
    expect(filterLine({ branch: 'main', status: 'open', days: 1 })).toMatch(/^Filters: branch main · status open · updated within a day /);
  });

  it('shows ages in at most four columns', () => {
    expect(shortAge(new Date(NOW.getTime() - 30_000), NOW)).toBe('now');
    expect(shortAge(new Date(NOW.getTime() - 5 * 60_000), NOW)).toBe('5m');
    expect(shortAge(new Date(NOW.getTime() - 3 * 3_600_000), NOW)).toBe('3h');
    expect(shortAge(new Date(NOW.getTime() - 20 * 86_400_000), NOW)).toBe('2w');
    expect(shortAge(new Date(NOW.getTime() - 800 * 86_400_000), NOW)).toBe('2y');
  });

  it('previews stored text with control characters neutralized, fitted to the pane, newest exchanges kept', () => {
    // As everywhere stored text is shown (visibleText): control pictures, C1 escaped, one line.
    expect(neutralize('a\x1b[2Jb\x07c\u009bd\te\nf')).toBe('a\u241b[2Jb\u2407c\\u009bd  e f');
    const messages = Array.from({ length: 12 }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `message ${i} \x1b]0;title\x07 ${'long '.repeat(30)}`,
      timestamp: NOW,
    }));
    const snapshot = { id: row(3).id, messages } as unknown as SessionSnapshot;
    const { head, body } = previewLines(widths, row(3, { parentId: 'session-parent', forkPoint: 4, branch: 'main' }), snapshot, { width: 40, height: 12 });
    expect(head).toContain('forked from session-parent at message 4');
    expect(head).toContain('branch main');
    expect(body.length).toBeLessThanOrEqual(12 - head.length - 1);
    for (const line of [...head, ...body]) {
      expect(stringWidth(line)).toBeLessThanOrEqual(40);
      // eslint-disable-next-line no-control-regex
      expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
    expect(body.join('\n')).toContain('long long');
  });

  it('wraps the last exchanges of a snapshot once per pane width, not at every repaint', () => {
    const messages = Array.from({ length: 4 }, (_, i) => ({ role: 'user' as const, content: `message ${i} über ${'long '.repeat(30)}`, timestamp: NOW }));
    const snapshot = { id: row(3).id, messages } as unknown as SessionSnapshot;
    let measured = 0;
    // The transcript's lines measured (the facts above them are a line or two, measured each time).
    const counting: Widths = { ...widths, *graphemeWidths(text) {
      if (text.includes('long long')) measured++;
      yield* widths.graphemeWidths(text);
    } };
    const first = previewLines(counting, row(3), snapshot, { width: 40, height: 30 });
    const once = measured;
    expect(once).toBeGreaterThan(0);
    expect(previewLines(counting, row(3), snapshot, { width: 40, height: 30 })).toEqual(first);
    expect(measured).toBe(once);
    // Another width: wrapped anew.
    previewLines(counting, row(3), snapshot, { width: 30, height: 30 });
    expect(measured).toBeGreaterThan(once);
  });
});

