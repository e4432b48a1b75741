/**
 * `fromAnthropic` / `toAnthropic` with the official `@anthropic-ai/sdk` against a server that
 * refuses what the Messages API refuses: a conversation with thinking (signed and redacted),
 * parallel tool calls and their results, stored through chatkeep (on disk, then resumed) and
 * sent back, is accepted and equal field for field to what the SDK held.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { fromAnthropic, fromOpenAIChat, messagesToSend, openSessions, toAnthropic, toOpenAIChat, type NewMessage } from '../../../src/index.js';
import { tmpHome } from '../../helpers/tmp-home.js';
import { startValidatingServer } from '../../helpers/validating-llm-server.js';
import { storedAndResumed } from './stored.js';

const tools = [{ name: 'clock', input_schema: { type: 'object' as const, properties: { zone: { type: 'string' } } } }];
const THINKING = { type: 'thinking', thinking: 'Two zones: call the clock twice.', signature: 'EqQBCkYIARgCKkD' };
const CALLING = [
  THINKING,
  { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
  { type: 'text', text: 'Let me check both clocks.', citations: null },
  { type: 'tool_use', id: 'toolu_1', name: 'clock', input: { zone: 'UTC' }, caller: { type: 'direct' } },
  { type: 'tool_use', id: 'toolu_2', name: 'clock', input: { zone: 'Europe/Paris' }, caller: { type: 'direct' } },
];
const ANSWER = [{ type: 'thinking', thinking: 'Both answered.', signature: 'EqQBCkYIARgCKkE' }, { type: 'text', text: 'Noon in UTC, 1 pm in Paris; daytime in both.', citations: null }];

async function client() {
  const server = await startValidatingServer({ anthropic: [CALLING, ANSWER], chat: [{ role: 'assistant', content: 'ok' }] });
  return { server, anthropic: new Anthropic({ apiKey: 'sk-ant-fake', baseURL: server.origin, maxRetries: 0 }) };
}

/** A conversation the SDK built: a cached system prompt, signed and redacted thinking, two tool calls, their results with a question after them. */
async function conversation(anthropic: Anthropic): Promise<{ system: TextBlockParam[]; messages: MessageParam[] }> {
  const system: TextBlockParam[] = [{ type: 'text', text: 'Answer briefly.', cache_control: { type: 'ephemeral' } }];
  const messages: MessageParam[] = [{ role: 'user', content: 'What time is it in UTC and in Paris?' }];
  const request = { model: 'claude-fake', max_tokens: 1024, thinking: { type: 'enabled' as const, budget_tokens: 512 }, tools, system };
  const first = await anthropic.messages.create({ ...request, messages });
  messages.push({ role: 'assistant', content: first.content });
  messages.push({
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: '12:00' },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: '13:00' }], is_error: false },
      { type: 'text', text: 'Is it daytime in both?' },
    ],
  });
  const second = await anthropic.messages.create({ ...request, messages });
  messages.push({ role: 'assistant', content: second.content }, { role: 'user', content: 'Thanks!' });
  return { system, messages };
}

describe('fromAnthropic / toAnthropic', () => {
  it('stores the conversation as messages every reader understands: thinking as reasoning, each tool result a tool message', async () => {
    const { anthropic } = await client();
    const session = await storedAndResumed(fromAnthropic(await conversation(anthropic)));
    expect(session.messages.map(({ role, content, toolCalls, toolCallId, provider }) => ({ role, content, toolCalls, toolCallId, provider }))).toEqual([
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'What time is it in UTC and in Paris?' },
      { role: 'assistant', content: 'Let me check both clocks.', provider: 'anthropic', toolCalls: [{ id: 'toolu_1', name: 'clock', arguments: '{"zone":"UTC"}' }, { id: 'toolu_2', name: 'clock', arguments: '{"zone":"Europe/Paris"}' }] },
      { role: 'tool', content: '12:00', toolCallId: 'toolu_1' },
      { role: 'tool', content: '13:00', toolCallId: 'toolu_2' },
      { role: 'user', content: 'Is it daytime in both?' },
      { role: 'assistant', content: 'Noon in UTC, 1 pm in Paris; daytime in both.', provider: 'anthropic' },
      { role: 'user', content: 'Thanks!' },
    ]);
    expect(session.messages[2]!.parts!.slice(0, 2)).toEqual([
      { type: 'reasoning', text: 'Two zones: call the clock twice.', signature: 'EqQBCkYIARgCKkD' },
      { type: 'reasoning', text: '', data: 'EmwKAhgBEgy3va3pzix' },
    ]);
    await session.close();
  });

  it('gives back what the SDK held, field for field, and the API accepts it', async () => {
    const { anthropic, server } = await client();
    const held = await conversation(anthropic);
    const session = await storedAndResumed(fromAnthropic(held));
    const back = toAnthropic(messagesToSend(session.messages, session.summary, { provider: 'anthropic' }));
    expect(back).toStrictEqual(JSON.parse(JSON.stringify(held)));
    await anthropic.messages.create({ model: 'claude-fake', max_tokens: 1024, tools, ...back });
    expect(server.requests.map((r) => r.refused)).toEqual([undefined, undefined, undefined]);
    expect(server.requests.at(-1)!.body.messages).toEqual(JSON.parse(JSON.stringify(held.messages)));
    await session.close();
  });

  it("crosses over: OpenAI's conversation goes to Anthropic, Anthropic's to OpenAI without its thinking, each accepted", async () => {
    const { anthropic, server } = await client();
    const fromClaude = await storedAndResumed(fromAnthropic(await conversation(anthropic)));
    const chat = toOpenAIChat(messagesToSend(fromClaude.messages, fromClaude.summary, { provider: 'openai' }));
    expect(chat[2]).toStrictEqual({
      role: 'assistant', content: [{ type: 'text', text: 'Let me check both clocks.' }],
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'clock', arguments: '{"zone":"UTC"}' } }, { id: 'toolu_2', type: 'function', function: { name: 'clock', arguments: '{"zone":"Europe/Paris"}' } }],
    });
    const fromGpt = await storedAndResumed(fromOpenAIChat([
      { role: 'developer', content: 'Answer briefly.' },
      { role: 'user', content: 'time?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'clock', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '12:00' },
    ]));
    const claude = toAnthropic(messagesToSend(fromGpt.messages, fromGpt.summary, { provider: 'anthropic' }));
    expect(claude).toStrictEqual({
      system: 'Answer briefly.',
      messages: [
        { role: 'user', content: 'time?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'clock', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '12:00' }] },
      ],
    });
    await anthropic.messages.create({ model: 'claude-fake', max_tokens: 1024, tools, ...claude });
    const openai = new (await import('openai')).default({ apiKey: 'sk-fake', baseURL: `${server.origin}/v1`, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'gpt-fake', messages: chat });
    expect(server.requests.slice(-2).map((r) => r.refused)).toEqual([undefined, undefined]);
    await fromClaude.close();
    await fromGpt.close();
  });
});

describe('the validating server', () => {
  it('refuses what the Messages API refuses', async () => {
    const { anthropic, server } = await client();
    const unsigned = { type: 'thinking', thinking: 'hmm' } as unknown as ContentBlockParam;
    const refusals: MessageParam[][] = [
      [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'orphan' }] }],
      [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'clock', input: {} }] }, { role: 'user', content: 'and?' }],
      [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [unsigned, { type: 'text', text: 'x' }] }],
    ];
    for (const messages of refusals) await expect(anthropic.messages.create({ model: 'claude-fake', max_tokens: 10, messages })).rejects.toMatchObject({ status: 400 });
    expect(server.requests.map((r) => r.refused)).toEqual([
      'messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
      'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
      'messages.1.content.0.thinking.signature: Field required',
    ]);
  });
});
