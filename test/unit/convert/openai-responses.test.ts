/**
 * `fromOpenAIResponses` / `toOpenAIResponses` with the official `openai` SDK against a server
 * that refuses what the Responses API refuses: reasoning items, parallel function calls and
 * their outputs, stored through chatkeep (on disk, then resumed) and sent back, are accepted and
 * equal field for field to what the SDK held.
 */
import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { fromOpenAIChat, fromOpenAIResponses, messagesToSend, openSessions, toOpenAIResponses, type NewMessage } from '../../../src/index.js';
import { tmpHome } from '../../helpers/tmp-home.js';
import { startValidatingServer } from '../../helpers/validating-llm-server.js';
import { storedAndResumed } from './stored.js';

const tools = [{ type: 'function' as const, name: 'clock', strict: false, parameters: { type: 'object', properties: { zone: { type: 'string' } } } }];
const CALLING = [
  { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Two zones: two calls.' }], encrypted_content: 'gAAAAABo' },
  { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'clock', arguments: '{"zone":"UTC"}', status: 'completed' },
  { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'clock', arguments: '{"zone":"Europe/Paris"}', status: 'completed' },
];
const ANSWER = [
  { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Noon in UTC, 1 pm in Paris.', annotations: [], logprobs: [] }] },
];

async function client() {
  const server = await startValidatingServer({ responses: [CALLING, ANSWER] });
  return { server, openai: new OpenAI({ apiKey: 'sk-fake', baseURL: `${server.origin}/v1`, maxRetries: 0 }) };
}

async function conversation(openai: OpenAI): Promise<ResponseInputItem[]> {
  const input: ResponseInputItem[] = [
    { role: 'developer', content: 'Answer briefly.' },
    { role: 'user', content: [{ type: 'input_text', text: 'What time is it in UTC and in Paris?' }, { type: 'input_image', image_url: 'https://example.com/clock.png', detail: 'auto' }] },
  ];
  const first = await openai.responses.create({ model: 'gpt-fake', input, tools, include: ['reasoning.encrypted_content'] });
  input.push(...(first.output as ResponseInputItem[]));
  input.push({ type: 'function_call_output', call_id: 'call_1', output: '12:00' }, { type: 'function_call_output', call_id: 'call_2', output: '13:00' });
  const second = await openai.responses.create({ model: 'gpt-fake', input, tools });
  input.push(...(second.output as ResponseInputItem[]), { role: 'user', content: 'Thanks!' });
  return input;
}

describe('fromOpenAIResponses / toOpenAIResponses', () => {
  it('stores the items as messages every reader understands: a call per message, its output a tool message', async () => {
    const { openai } = await client();
    const session = await storedAndResumed(fromOpenAIResponses(await conversation(openai)));
    expect(session.messages.map(({ role, content, toolCalls, toolCallId, id, parts }) => ({ role, content, toolCalls, toolCallId, id, parts }))).toEqual([
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'What time is it in UTC and in Paris?', parts: [{ type: 'text', text: 'What time is it in UTC and in Paris?' }, { type: 'image', url: 'https://example.com/clock.png', detail: 'auto' }] },
      { role: 'assistant', content: '', id: 'rs_1', parts: [{ type: 'reasoning', text: 'Two zones: two calls.', data: 'gAAAAABo' }] },
      { role: 'assistant', content: '', id: 'fc_1', toolCalls: [{ id: 'call_1', name: 'clock', arguments: '{"zone":"UTC"}' }] },
      { role: 'assistant', content: '', id: 'fc_2', toolCalls: [{ id: 'call_2', name: 'clock', arguments: '{"zone":"Europe/Paris"}' }] },
      { role: 'tool', content: '12:00', toolCallId: 'call_1' },
      { role: 'tool', content: '13:00', toolCallId: 'call_2' },
      { role: 'assistant', content: 'Noon in UTC, 1 pm in Paris.', id: 'msg_1', parts: [{ type: 'text', text: 'Noon in UTC, 1 pm in Paris.' }] },
      { role: 'user', content: 'Thanks!' },
    ]);
    await session.close();
  });

  it('gives back what the SDK held, field for field, and the API accepts it', async () => {
    const { openai, server } = await client();
    const input = await conversation(openai);
    const session = await storedAndResumed(fromOpenAIResponses(input));
    const back = toOpenAIResponses(messagesToSend(session.messages, session.summary, { provider: 'openai' }));
    expect(back).toStrictEqual(JSON.parse(JSON.stringify(input)));
    await openai.responses.create({ model: 'gpt-fake', input: back, tools });
    expect(server.requests.map((r) => r.refused)).toEqual([undefined, undefined, undefined]);
    expect(server.requests.at(-1)!.body.input).toEqual(JSON.parse(JSON.stringify(input)));
    await session.close();
  });

  it('sends a Chat Completions conversation as items the API accepts: each tool call its own function call', async () => {
    const { openai, server } = await client();
    const session = await storedAndResumed(fromOpenAIChat([
      { role: 'user', content: 'time?' },
      { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'clock', arguments: '{}' } }, { id: 'call_2', type: 'function', function: { name: 'clock', arguments: '{"zone":"CET"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '12:00' },
      { role: 'tool', tool_call_id: 'call_2', content: '13:00' },
    ]));
    const input = toOpenAIResponses(messagesToSend(session.messages, session.summary, { provider: 'openai' }));
    expect(input).toStrictEqual([
      { role: 'user', content: 'time?' },
      { type: 'message', role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_1', name: 'clock', arguments: '{}' },
      { type: 'function_call', call_id: 'call_2', name: 'clock', arguments: '{"zone":"CET"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '12:00' },
      { type: 'function_call_output', call_id: 'call_2', output: '13:00' },
    ]);
    await openai.responses.create({ model: 'gpt-fake', input, tools });
    expect(server.requests.at(-1)!.refused).toBeUndefined();
    await session.close();
  });
});

describe('the validating server', () => {
  it('refuses what the Responses API refuses', async () => {
    const { openai, server } = await client();
    const refusals: ResponseInputItem[][] = [
      [{ role: 'user', content: 'hi' }, { type: 'function_call_output', call_id: 'call_9', output: 'orphan' }],
      [{ role: 'user', content: 'hi' }, { type: 'function_call', call_id: 'call_1', name: 'clock', arguments: '{}' }],
      [{ role: 'user', content: 'hi' }, { type: 'reasoning', id: 'rs_1', summary: [] }],
    ];
    for (const input of refusals) await expect(openai.responses.create({ model: 'gpt-fake', input })).rejects.toMatchObject({ status: 400 });
    expect(server.requests.map((r) => r.refused)).toEqual([
      'No tool call found for function call output with call_id call_9.',
      'No tool output found for function call call_1.',
      "Item 'rs_1' of type 'reasoning' was provided without its required following item.",
    ]);
  });
});
