import { beforeAll, describe, expect, it } from 'vitest';
import { loadFormatter, type Formatter } from '../../../src/terminal/format.js';
import { formatSearchResults } from '../../../src/terminal/format-search.js';
import type { SessionSummary } from '../../../src/session/api/listing.js';
import { visibleText } from '../../../src/text/visible-text.js';

let format: Formatter;
beforeAll(async () => {
  format = await loadFormatter();
});

describe('visibleText', () => {
  it('shows C0 controls and DEL as control pictures, C1 controls as \\u escapes, and keeps tabs and newlines', () => {
    expect(visibleText('a\x1b[2J\x1b[Hb')).toBe('a␛[2J␛[Hb');
    expect(visibleText('\x1b]52;c;ZXZpbA==\x07')).toBe('␛]52;c;ZXZpbA==␇');
    expect(visibleText('x\u009b31mred\x7f')).toBe('x\\u009b31mred␡');
    expect(visibleText('over\rwrite')).toBe('over␍write');
    expect(visibleText('tab\there\nline two\r\nthree\0')).toBe('tab\there\nline two\nthree␀');
    expect(visibleText('plain café — 日本')).toBe('plain café — 日本');
  });
});

const now = new Date('2026-11-22T15:00:00Z');
const row: SessionSummary = {
  id: 'session-a',
  title: 'planted \x1b]52;c;ZXZpbA==\x07 title',
  createdAt: now,
  updatedAt: now,
  messageCount: 2,
  status: 'closed',
  project: '/p\x1b[2J',
};

describe('listings and search snippets', () => {
  it('show a stored title and project path with their control characters inert', () => {
    const [line] = format.formatRows([row], { projectPath: '/other', now });
    expect(line).toContain('planted ␛]52;c;ZXZpbA==␇ title  [/p␛[2J]');
    expect(line).not.toMatch(/[\x00-\x1f]/);
  });

  it('show a snippet with its control characters inert, the hit still marked', () => {
    const text = 'a \x1b[2Jfig\x07 b';
    const lines = formatSearchResults(
      {
        query: 'fig',
        total: 1,
        index: [],
        results: [{ session: row, hits: 1, matched: { title: false, id: false, messages: 1 }, snippet: { message: 0, role: 'user', text, highlights: [[6, 9]], timestamp: now, archived: false } }],
      },
      { widths: format, rows: (rows) => rows.map((r) => r.id), highlight: (hit) => `[${hit}]` },
    );
    expect(lines[1]).toBe('    1 hit · user: a ␛[2J[fig]␇ b');
  });
});
