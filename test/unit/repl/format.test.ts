import { beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, formatRows, loadFormatting, relativeTime, tokens, transcriptTail } from '../../../src/repl/format.js';

beforeAll(() => loadFormatting());
import type { Message, SessionSummary } from '../../../src/session/types.js';

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
  it('uses date-fns, counting a time slightly ahead of the clock as now', () => {
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
