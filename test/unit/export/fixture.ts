/** A snapshot with every part an export carries: archived /reset segments, lineage, summary, tool calls, flags. */
import { blankSnapshot } from '../../../src/session/format/blank.js';
import type { Message, SessionSnapshot } from '../../../src/session/api/data.js';

const at = (s: number): Date => new Date(Date.UTC(2026, 10, 22, 14, 30, s));

export function richSnapshot(): SessionSnapshot {
  const earlier: Message[] = [
    { role: 'user', content: 'first question', timestamp: at(1) },
    { role: 'assistant', content: 'first answer', timestamp: at(2), usage: { inputTokens: 3, outputTokens: 4 }, model: 'gpt-4o' },
  ];
  const messages: Message[] = [
    { role: 'user', content: 'Show me a fence:\n````md\n```js\nx()\n```\n````', timestamp: at(10) },
    {
      role: 'assistant',
      content: 'Calling a tool',
      timestamp: at(11),
      toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt","__proto__":{"x":1}}' }],
      usage: { inputTokens: 10, outputTokens: 20 },
      model: 'gpt-4o',
    },
    { role: 'tool', content: 'file text', timestamp: at(12), toolCallId: 'call_1' },
    { role: 'assistant', content: 'An answer cut short ```py\nprint(1', timestamp: at(13), interrupted: true },
    { role: 'assistant', content: 'An older answer', timestamp: at(14), superseded: true },
  ];
  return {
    ...blankSnapshot('session-20261122-143000', '/home/ann/app', at(0), '0.1.0'),
    title: 'Fences & <tags>',
    updatedAt: at(14),
    status: 'closed',
    host: 'laptop',
    pid: 1234,
    journalSeq: 17,
    savedBy: 'close',
    provider: { name: 'openai', model: 'gpt-4o', source: 'flag' },
    systemPrompt: { path: '/home/ann/brief.md', sha256: 'ab'.repeat(32), source: 'flag' },
    config: { autosave: { value: '*/5 * * * *', source: 'default' } },
    draft: 'half typed',
    messages,
    summary: 'We talked about fences.',
    archived: [{ archivedAt: at(5), messages: earlier, summary: null, stats: { messageCount: 2, inputTokens: 3, outputTokens: 4 } }],
    stats: { messageCount: 5, inputTokens: 10, outputTokens: 20, byModel: [{ model: 'gpt-4o', inputTokens: 10, outputTokens: 20 }] },
    parentId: 'session-20261121-090000',
    forkPoint: 4,
    git: { root: '/home/ann/app', branch: 'main', head: 'c'.repeat(40) },
  };
}
