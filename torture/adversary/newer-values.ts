/**
 * A newer build's event of each known type, with a value this build does not know (a role, a
 * part type, a title or config source, a field of another type): what the `adversary` torture
 * part writes behind chatkeep's back, and what the store contract's cases check one by one.
 */
export const NEWER_VALUES: { type: string; payload: Record<string, unknown> }[] = [
  { type: 'message', payload: { message: { role: 'developer', content: 'from a newer build', timestamp: '2026-11-23T10:20:30.000Z' } } },
  { type: 'message', payload: { message: { role: 'user', content: '', parts: [{ type: 'audio', data: 'AAAA' }], timestamp: '2026-11-23T10:20:30.000Z' } } },
  { type: 'delta', payload: { replyId: 'r-newer', text: 'partial', replace: 'all' } },
  { type: 'reset', payload: { summary: 'a summary', keep: 'half' } },
  { type: 'title', payload: { title: 'Chosen by the model', source: 'model' } },
  { type: 'config', payload: { key: 'temperature', value: { value: 0.2, source: 'remote' } } },
  { type: 'provider', payload: { name: 'anthropic', model: 'next', source: 'remote' } },
  { type: 'system', payload: { ref: { url: 'https://example.com/prompt' } } },
  { type: 'draft', payload: { text: ['rich', 'draft'] } },
  { type: 'supersede', payload: { indexes: 'all' } },
  { type: 'git', payload: { root: '/repo', branch: null, head: 7 } },
];
