import { beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, loadFormatter, relativeTime, shortAge, tokens, transcriptTail, type Formatter } from '../../../src/terminal/format.js';

let format: Formatter;
beforeAll(async () => {
  format = await loadFormatter();
});
const formatRows: Formatter['formatRows'] = (rows, options) => format.formatRows(rows, options);
const displayWidth = (text: string): number => format.displayWidth(text);
import type { Message } from '../../../src/session/api/data.js';
import type { SessionSummary } from '../../../src/session/api/listing.js';

const now = new Date('2026-11-22T15:00:00Z');
const row = (id: string, minutesAgo: number, extra: Partial<SessionSummary> = {}): SessionSummary => ({
  id,
  title: null,
  createdAt: new Date(now.getTime() - minutesAgo * 60_000),
  updatedAt: new Date(now.getTime() - minutesAgo * 60_000),
  messageCount: 2,
  status: 'closed',
  project: '/p',
  ...extra,
});

describe('formatRows', () => {
  it('shows ID, relative time, count, status and title, marking the current session', () => {
    const lines = formatRows([row('session-a', 5, { title: 'auth bug' }), row('session-bb', 120, { messageCount: 1, status: 'interrupted' })], {
      currentId: 'session-a',
      projectPath: '/p',
      now,
    });
    expect(lines).toEqual([
      '* session-a   5 minutes ago      2 messages  closed       auth bug',
      '  session-bb  about 2 hours ago   1 message  interrupted  (untitled)',
    ]);
  });

  it('names the project of rows from other projects', () => {
    const [line] = formatRows([row('session-x', 1, { project: '/elsewhere' })], { projectPath: '/p', now });
    expect(line).toContain('[/elsewhere]');
  });
});

describe('relativeTime', () => {
  it('counts a time slightly ahead of the clock as now', () => {
    expect(relativeTime(new Date(now.getTime() - 10_000), now)).toBe('less than a minute ago');
    expect(relativeTime(new Date(now.getTime() + 5_000), now)).toBe('less than a minute ago');
    expect(relativeTime(new Date(now.getTime() - 3 * 86_400_000), now)).toBe('3 days ago');
  });
});

describe('transcriptTail', () => {
  const msg = (role: Message['role'], content: string, interrupted = false): Message => ({ role, content, timestamp: now, ...(interrupted ? { interrupted } : {}) });

  it('shows the last messages, user lines marked, interrupted replies flagged', () => {
    const lines = transcriptTail([msg('user', 'one'), msg('assistant', 'two'), msg('user', 'three'), msg('assistant', 'fo', true)], { max: 3 });
    expect(lines).toEqual(['… 1 earlier message', 'two', '› three', 'fo [interrupted]']);
  });

  it('caps a long message', () => {
    expect(formatMessage(msg('assistant', 'a\nb\nc\nd'), 2)).toEqual(['a', 'b', '… (2 more lines)']);
  });
});

describe('counts', () => {
  it('take the singular for one, in token counts too', () => {
    expect(tokens({ inputTokens: 1, outputTokens: 0 })).toBe(' · 1 token');
    expect(tokens({ inputTokens: 1, outputTokens: 1 })).toBe(' · 2 tokens');
  });
});
describe('formatRows at a width (docs/design.md §14)', () => {
  const wide = [
    row('session-20261122-143022', 5, { title: '会議の記録をまとめる長いタイトル🙂 and more words after it', usage: { inputTokens: 1200, outputTokens: 300 }, branch: 'feature/long-branch-name' }),
    row('session-20261122-143022-2', 3, { title: 'a fork', parentId: 'session-20261122-143022', forkPoint: 2, status: 'interrupted' }),
  ];

  it('gives up room in the stated order: tokens, then the title beyond 48, lineage and branch cut, short ages, …', () => {
    const at = (width: number): string[] => formatRows(wide, { now, width });
    // Wide enough: everything whole.
    expect(at(260)[0]).toContain('5 minutes ago  2 messages · 1.5k tokens  closed');
    // Tokens go first.
    expect(at(210)[0]).toMatch(/5 minutes ago {2}2 messages {2}closed {7}feature\/long-branch-name {2}/);
    // At 80: lineage, branch and message count dropped, ages short; the title keeps 24 columns or more, the IDs are whole.
    const narrow = at(80);
    expect(narrow[0]).toMatch(/^ {2}session-20261122-143022 {4}5m ago {2}closed {7}会議の記録をまとめる長いタイ…$/);
    expect(narrow[1]).not.toContain('forked from');
    expect(narrow[0]).not.toContain('feature/');
    for (const width of [80, 100, 120, 140, 160]) for (const line of at(width)) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
  });

  it('shows the lineage only when a row is a fork, cut like the title', () => {
    expect(formatRows([wide[0]!], { now, width: 200 })[0]).not.toContain('forked from');
    const lines = formatRows(wide, { now, width: 160 });
    expect(lines[1]).toMatch(/ {2}forked from session-2026112… {2}a fork$/);
    // Narrower, the lineage goes before the branch does.
    expect(formatRows(wide, { now, width: 140 })[1]).not.toContain('forked');
    // and the room it leaves goes back to the columns cut before it.
    expect(formatRows(wide, { now, width: 140 })[0]).toContain('feature/long-branch-name  会議');
  });

  it('shows the automatic title derived for an untitled session of an earlier build', () => {
    expect(formatRows([row('session-x', 1, { derivedTitle: 'what the first message said' })], { now })[0]).toMatch(/closed {2}what the first message said$/);
  });
});

describe('shortAge', () => {
  it('says how long ago in a few columns', () => {
    const ago = (seconds: number): string => shortAge(new Date(now.getTime() - seconds * 1000), now);
    expect([ago(10), ago(5 * 60), ago(3 * 3600), ago(2 * 86_400), ago(90 * 86_400), ago(800 * 86_400)]).toEqual(['now', '5m ago', '3h ago', '2d ago', '3mo ago', '2y ago']);
  });
});

