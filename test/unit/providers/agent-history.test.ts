import { describe, expect, it } from 'vitest';
import { messagesToSend } from '../../../src/session/model/compaction.js';
import { INTERRUPTED_CALL, UNANSWERED } from '../../../src/session/model/history.js';
import type { Message } from '../../../src/session/api/data.js';
import { consume, sdkProviderFor } from './stream-helpers.js';

const at = new Date('2026-11-25T10:00:00Z');

/** An agent's stored conversation: parts, reasoning of two providers, a refusal, tool calls left unanswered. */
const stored: Message[] = [
  { role: 'system', content: 'Answer in French.', timestamp: at },
  {
    role: 'user', content: 'What is this?', timestamp: at,
    parts: [{ type: 'text', text: 'What is this?' }, { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' }, { type: 'image', url: 'https://example.com/cat.png', detail: 'low' }],
  },
  {
    role: 'assistant', content: 'Un chat.', timestamp: at, provider: 'anthropic',
    parts: [{ type: 'reasoning', text: 'It is a cat.', signature: 'sig-1' }, { type: 'reasoning', text: 'unsigned', provider: 'anthropic' }, { type: 'reasoning', text: '', data: 'opaque', provider: 'anthropic' }, { type: 'text', text: 'Un chat.' }],
    toolCalls: [{ id: 'call_a', name: 'weather', arguments: '{"city":"Paris"}' }, { id: 'call_b', name: 'clock', arguments: '{}' }],
  },
  { role: 'tool', content: '18°C', timestamp: at, toolCallId: 'call_a', status: 'completed' },
  {
    role: 'assistant', content: 'Non.', timestamp: at, provider: 'openai',
    parts: [{ type: 'reasoning', text: 'o-series thoughts' }, { type: 'refusal', text: 'Non.' }],
  },
  { role: 'user', content: 'Encore ?', timestamp: at },
  { role: 'assistant', content: 'Je regarde', timestamp: at, interrupted: true, toolCalls: [{ id: 'call_c', name: 'look', arguments: '{"a": ' }] },
];

describe('the history each provider gets, through its official SDK', () => {
  it('anthropic: system messages in `system`, images as blocks, only its own signed thinking, every tool call answered', async () => {
    const { server, provider } = await sdkProviderFor('anthropic', 'claude-test-1', 'sk-ant-test-0123456789abcdef').serve({ text: ['ok'] });
    const seen = await consume(provider.stream(messagesToSend(stored, null, { provider: 'anthropic' }), { system: 'Be brief.' }));
    expect(seen.error).toBeUndefined();
    const body = server.requests[0]!.body as { system: string; messages: unknown[] };
    expect(body.system).toBe('Be brief.\n\nAnswer in French.');
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'It is a cat.', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Un chat.' },
          { type: 'text', text: '[tool call call_a: weather({"city":"Paris"})]\n[tool call call_b: clock({})]' },
        ],
      },
      { role: 'user', content: '[tool result call_a]\n18°C' },
      { role: 'user', content: `[tool result call_b]\n${UNANSWERED}` },
      // The other provider's reasoning is not sent; its refusal is text.
      { role: 'assistant', content: [{ type: 'text', text: 'Non.' }] },
      { role: 'user', content: 'Encore ?' },
      { role: 'assistant', content: 'Je regarde\n[tool call call_c: look({"a": )]' },
      { role: 'user', content: `[tool result call_c]\n${INTERRUPTED_CALL}` },
    ]);
  });

  it('openai: a system message, images as image_url (inline as a data URL), the refusal as `refusal`, no reasoning', async () => {
    const { server, provider } = await sdkProviderFor('openai', 'gpt-test-1', 'sk-test-0123456789abcdef').serve({ text: ['ok'] });
    const seen = await consume(provider.stream(messagesToSend(stored, null, { provider: 'openai' }), { system: 'Be brief.' }));
    expect(seen.error).toBeUndefined();
    const body = server.requests[0]!.body as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.\n\nAnswer in French.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
        ],
      },
      { role: 'assistant', content: 'Un chat.\n[tool call call_a: weather({"city":"Paris"})]\n[tool call call_b: clock({})]' },
      { role: 'user', content: '[tool result call_a]\n18°C' },
      { role: 'user', content: `[tool result call_b]\n${UNANSWERED}` },
      { role: 'assistant', content: '', refusal: 'Non.' },
      { role: 'user', content: 'Encore ?' },
      { role: 'assistant', content: 'Je regarde\n[tool call call_c: look({"a": )]' },
      { role: 'user', content: `[tool result call_c]\n${INTERRUPTED_CALL}` },
    ]);
  });

  it('without a provider named, no reasoning or native part is sent back at all', () => {
    const sent = messagesToSend(stored, null);
    expect(sent.flatMap((m) => m.parts ?? []).filter((p) => p.type === 'reasoning' || p.type === 'native')).toEqual([]);
    // Superseded answers stay out as before.
    expect(messagesToSend([{ ...stored[5]!, superseded: true }], null)).toEqual([]);
  });
});
