/**
 * `fromOpenAIChat` / `toOpenAIChat` with the official `openai` SDK against a server that refuses
 * what the real API refuses: a conversation with tool calls, stored through chatkeep (on disk,
 * then resumed) and sent back, is accepted and equal field for field to what the SDK held.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { fromOpenAIChat, messagesToSend, openSessions, toOpenAIChat, type NewMessage } from '../../../src/index.js';
import { tmpHome } from '../../helpers/tmp-home.js';
import { startValidatingServer } from '../../helpers/validating-llm-server.js';
import { storedAndResumed } from './stored.js';

const tools = [{ type: 'function' as const, function: { name: 'clock', parameters: { type: 'object', properties: { zone: { type: 'string' } } } } }];

const CALLING = {
  role: 'assistant', content: null, refusal: null, annotations: [],
  tool_calls: [
    { id: 'call_1', type: 'function', function: { name: 'clock', arguments: '{"zone":"UTC"}' } },
    { id: 'call_2', type: 'function', function: { name: 'clock', arguments: '{"zone":"Europe/Paris"}' } },
  ],
};
const ANSWER = { role: 'assistant', content: 'It is noon in UTC and 1 pm in Paris.', refusal: null, annotations: [] };

async function client() {
  const server = await startValidatingServer({ chat: [CALLING, ANSWER] });
  return { server, openai: new OpenAI({ apiKey: 'sk-fake', baseURL: `${server.origin}/v1`, maxRetries: 0 }) };
}

/** A conversation the SDK built: instructions both ways, a picture, two tool calls and their results, the answer. */
async function conversation(openai: OpenAI): Promise<ChatCompletionMessageParam[]> {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'developer', content: 'Answer briefly.' },
    { role: 'system', content: [{ type: 'text', text: 'Use the clock tool for times.' }] },
    { role: 'user', name: 'ann', content: [{ type: 'text', text: 'What time is it here and in Paris?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } }] },
  ];
  const first = await openai.chat.completions.create({ model: 'gpt-fake', messages, tools });
  const calling = first.choices[0]!.message;
  messages.push(calling);
  for (const call of calling.tool_calls ?? []) {
    messages.push({ role: 'tool', tool_call_id: call.id, content: call.id === 'call_1' ? '12:00' : [{ type: 'text', text: '13:00' }] });
  }
  const second = await openai.chat.completions.create({ model: 'gpt-fake', messages, tools });
  messages.push(second.choices[0]!.message, { role: 'user', content: 'Thanks!' });
  return messages;
}

describe('fromOpenAIChat / toOpenAIChat', () => {
  it('stores a tool-calling conversation as chatkeep messages every reader understands', async () => {
    const { openai } = await client();
    const session = await storedAndResumed(fromOpenAIChat(await conversation(openai)));
    expect(session.messages.map(({ role, content, toolCalls, toolCallId, name, provider }) => ({ role, content, toolCalls, toolCallId, name, provider }))).toEqual([
      { role: 'system', content: 'Answer briefly.' },
      { role: 'system', content: 'Use the clock tool for times.' },
      { role: 'user', content: 'What time is it here and in Paris?', name: 'ann' },
      { role: 'assistant', content: '', provider: 'openai', toolCalls: [{ id: 'call_1', name: 'clock', arguments: '{"zone":"UTC"}' }, { id: 'call_2', name: 'clock', arguments: '{"zone":"Europe/Paris"}' }] },
      { role: 'tool', content: '12:00', toolCallId: 'call_1' },
      { role: 'tool', content: '13:00', toolCallId: 'call_2' },
      { role: 'assistant', content: 'It is noon in UTC and 1 pm in Paris.', provider: 'openai' },
      { role: 'user', content: 'Thanks!' },
    ]);
    expect(session.messages[2]!.parts).toEqual([{ type: 'text', text: 'What time is it here and in Paris?' }, { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' }]);
    await session.close();
  });

  it('gives back what the SDK held, field for field, and the API accepts it', async () => {
    const { openai, server } = await client();
    const messages = await conversation(openai);
    const session = await storedAndResumed(fromOpenAIChat(messages));
    const back = toOpenAIChat(messagesToSend(session.messages, session.summary, { provider: 'openai' }));
    expect(back).toStrictEqual(JSON.parse(JSON.stringify(messages)));
    await openai.chat.completions.create({ model: 'gpt-fake', messages: back, tools });
    expect(server.requests.map((r) => r.refused)).toEqual([undefined, undefined, undefined]);
    expect(server.requests.at(-1)!.body.messages).toEqual(JSON.parse(JSON.stringify(messages)));
    await session.close();
  });

  it("sends messages another host wrote as the API takes them: a call's empty content as null, reasoning left out", async () => {
    const { openai, server } = await client();
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    const session = await sessions.create();
    await session.append(
      { role: 'user', content: 'time?' },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'use the clock', signature: 'sig' }], provider: 'anthropic', toolCalls: [{ id: 'toolu_1', name: 'clock', arguments: { zone: 'UTC' } }] },
      { role: 'tool', content: '12:00', toolCallId: 'toolu_1' },
    );
    const back = toOpenAIChat(messagesToSend(session.messages, session.summary, { provider: 'openai' }));
    expect(back).toStrictEqual([
      { role: 'user', content: 'time?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'clock', arguments: '{"zone":"UTC"}' } }] },
      { role: 'tool', content: '12:00', tool_call_id: 'toolu_1' },
    ]);
    await openai.chat.completions.create({ model: 'gpt-fake', messages: back });
    expect(server.requests.at(-1)!.refused).toBeUndefined();
    await session.close();
  });

  it('refuses a tool message without its tool_call_id and a role the API has no more, naming the place', () => {
    expect(() => fromOpenAIChat([{ role: 'user', content: 'hi' }, { role: 'tool', content: '12:00' }] as never)).toThrow('Bad message: `[1].tool_call_id` is missing: a tool message answers a call by its ID.');
    expect(() => fromOpenAIChat([{ role: 'function', name: 'clock', content: '12:00' }] as never)).toThrow(/`\[0\]\.role` is "function"/);
  });
});

describe('the validating server', () => {
  it('refuses what the Chat Completions API refuses', async () => {
    const { openai, server } = await client();
    const refusals: (ChatCompletionMessageParam[])[] = [
      [{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'call_9', content: 'orphan' }],
      [{ role: 'user', content: 'hi' }, CALLING as ChatCompletionMessageParam, { role: 'tool', tool_call_id: 'call_1', content: '12:00' }, { role: 'user', content: 'and?' }],
      [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null }],
    ];
    for (const messages of refusals) await expect(openai.chat.completions.create({ model: 'gpt-fake', messages })).rejects.toMatchObject({ status: 400 });
    expect(server.requests.map((r) => r.refused)).toEqual([
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_2",
      "Invalid value for 'messages[1].content': expected a string, got null.",
    ]);
  });
});
