import { InMemoryChatMessageHistory, type BaseListChatMessageHistory } from '@langchain/core/chat_history';
import { HumanMessage, ToolMessage, mapStoredMessageToChatMessage, type BaseMessage, type StoredMessage } from '@langchain/core/messages';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openSessions } from '../../src/index.js';
import { openChatHistory } from '../../src/frameworks/langchain/index.js';
import { calls, said, startFakeResponsesServer, type ResponseOutputItem } from '../helpers/fake-responses-server.js';
import { startHost } from '../helpers/host-process.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { leaves } from './agent-items.js';
import { described, LANGCHAIN_MESSAGES } from './langchain-messages.js';

const HOST = fileURLToPath(new URL('./langchain-host.mjs', import.meta.url));

/** The weather conversation: a tool call, its answer, and a next question. */
const SCRIPT: ResponseOutputItem[][] = [[calls('fc_1', 'call_1', 'get_weather', { city: 'Oslo' })], [said('msg_1', 'It is sunny in Oslo.')], [said('msg_2', 'Rain tomorrow.')]];
const TURNS: BaseMessage[][] = [
  [new HumanMessage('Weather in Oslo?')],
  [new ToolMessage({ content: 'Sunny, 21 °C', tool_call_id: 'call_1', name: 'get_weather' })],
  [new HumanMessage('And tomorrow?')],
];

/** A chat model of @langchain/openai on the fake Responses server, with the weather tool bound. */
function model(baseURL: string) {
  const weather = tool(async ({ city }: { city: string }) => `Sunny in ${city}`, {
    name: 'get_weather',
    description: 'The weather in a city',
    schema: z.object({ city: z.string() }),
  });
  return new ChatOpenAI({ model: 'gpt-fake', apiKey: 'sk-test', useResponsesApi: true, configuration: { baseURL } }).bindTools([weather]);
}

/** Runs `turns` through RunnableWithMessageHistory with the history `open` gives for the session ID. */
async function converse(baseURL: string, turns: BaseMessage[][], history: (id: string) => Promise<BaseListChatMessageHistory>): Promise<BaseMessage[]> {
  const chain = new RunnableWithMessageHistory({ runnable: model(baseURL), getMessageHistory: history });
  const replies: BaseMessage[] = [];
  for (const turn of turns) replies.push(await chain.invoke(turn, { configurable: { sessionId: 'weather' } }));
  return replies;
}

describe('chatkeep/langchain: a BaseListChatMessageHistory kept by chatkeep', () => {
  it('gives back every message class with every field after the session is closed and resumed', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: home });
    const history = await openChatHistory(sessions);
    await history.addMessages(LANGCHAIN_MESSAGES.slice(0, 4));
    for (const message of LANGCHAIN_MESSAGES.slice(4)) await history.addMessage(message);
    const id = history.session.id;
    await history.close();

    const again = await openChatHistory(await openSessions({ home, cwd: home }), { id });
    const messages = await again.getMessages();
    expect(messages.map(described)).toStrictEqual(LANGCHAIN_MESSAGES.map(described));
    expect(messages).toHaveLength(10);
    expect(leaves(LANGCHAIN_MESSAGES.map((m) => described(m).dict))).toBe(86);

    // chatkeep's own readers see text, tool calls, results and usage as its messages.
    const stored = again.session.messages;
    expect(stored.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool', 'tool', 'assistant', 'assistant', 'user', 'tool']);
    expect(stored[3]).toMatchObject({
      content: 'Let me look that up.',
      toolCalls: [
        { id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { id: 'call_2', name: 'get_weather', arguments: '{"city":"Bergen","units":["C","F"]}' },
      ],
      usage: { inputTokens: 42, outputTokens: 17 },
      model: 'gpt-fake-1',
    });
    expect(stored[3]!.parts).toEqual([
      { type: 'reasoning', text: 'Two cities; call the tool twice.', provider: 'openai' },
      { type: 'reasoning', text: 'Check the units.', signature: 'EqQBCkYIARgCIkD', provider: 'anthropic' },
      { type: 'text', text: 'Let me look that up.' },
    ]);
    expect(stored[5]).toMatchObject({ role: 'tool', content: 'Bergen: rain', toolCallId: 'call_2', name: 'get_weather', status: 'error' });
    expect(again.session.stats).toMatchObject({ inputTokens: 122, outputTokens: 26 });
    await again.clear();
    expect(await again.getMessages()).toEqual([]);
    expect(again.session.archived[0]!.messages).toHaveLength(10);
    await again.close();
    const [row] = await sessions.list();
    expect(row).toMatchObject({ id, title: 'What is the weather in Oslo?' });
  });

  it('keeps a RunnableWithMessageHistory conversation with a tool call as LangChain’s own in-memory history does, across a reopen', async () => {
    const home = tmpHome();
    const memory = new InMemoryChatMessageHistory();
    const expected = await converse((await startFakeResponsesServer(SCRIPT)).baseURL, TURNS, async () => memory);

    const server = await startFakeResponsesServer(SCRIPT);
    const sessions = await openSessions({ home, cwd: home });
    const first = await openChatHistory(sessions);
    const replies = await converse(server.baseURL, TURNS.slice(0, 2), async () => first);
    expect(replies.map(described)).toStrictEqual(expected.slice(0, 2).map(described));
    expect((replies[0] as unknown as { tool_calls: unknown[] }).tool_calls).toMatchObject([{ id: 'call_1', name: 'get_weather', args: { city: 'Oslo' } }]);
    await first.close();

    // Another process's turn: the history it resumes is the one the first one left.
    const later = await openChatHistory(await openSessions({ home, cwd: home }), { id: first.session.id });
    const [last] = await converse(server.baseURL, TURNS.slice(2), async () => later);
    expect(described(last!)).toStrictEqual(described(expected[2]!));
    expect((await later.getMessages()).map(described)).toStrictEqual((await memory.getMessages()).map(described));
    // The model got the whole conversation, the tool call followed by its result.
    const input = server.requests[2]!.input as Record<string, unknown>[];
    expect(input.map((i) => i.role ?? i.type)).toEqual(['user', 'function_call', 'function_call_output', 'assistant', 'user']);
    await later.close();
  });

  it('keeps the conversation under LangChain’s own sessionId: the first call creates that session, a later program resumes it', async () => {
    const home = tmpHome();
    const server = await startFakeResponsesServer(SCRIPT);
    const sessions = await openSessions({ home, cwd: home });
    const held: BaseListChatMessageHistory[] = [];
    await converse(server.baseURL, TURNS.slice(0, 2), async (id) => held[0] ?? (held[0] = await openChatHistory(sessions, { id })));
    const first = held[0] as Awaited<ReturnType<typeof openChatHistory>>;
    expect(first.session.id).toBe('weather');
    await first.close();

    const again = await openSessions({ home, cwd: home });
    const later = await openChatHistory(again, { id: 'weather' });
    expect((await later.getMessages()).map((m) => m.getType())).toEqual(['human', 'ai', 'tool', 'ai']);
    await later.close();
    expect((await again.list()).map((r) => r.id)).toEqual(['weather']);
  });

  it('after kill -9 with a tool call waiting for its result, the resumed history holds every message acknowledged, and the result completes it', async () => {
    const home = tmpHome();
    const server = await startFakeResponsesServer(SCRIPT);
    const host = startHost(HOST, [home, home, server.baseURL]);
    const id = (await host.line('session ')).slice('session '.length);
    host.send('Weather in Oslo?\n');
    await host.line('done');
    await host.kill9();

    const acknowledged = host.lines
      .filter((l) => l.startsWith('stored '))
      .flatMap((l) => (JSON.parse(l.slice('stored '.length)) as StoredMessage[]).map(mapStoredMessageToChatMessage));
    const history = await openChatHistory(await openSessions({ home, cwd: home }), { id });
    const messages = await history.getMessages();
    expect(messages.map(described)).toStrictEqual(acknowledged.map(described));
    // The AI message's tool call waits for the host's result, as stored: not closed by chatkeep.
    expect(messages.map((m) => m.getType())).toEqual(['human', 'ai']);
    expect((messages[1] as unknown as { tool_calls: unknown[] }).tool_calls).toMatchObject([{ id: 'call_1', name: 'get_weather' }]);
    const [answer] = await converse(server.baseURL, TURNS.slice(1, 2), async () => history);
    expect(answer!.content).toMatchObject([{ type: 'text', text: 'It is sunny in Oslo.' }]);
    expect(await history.getMessages()).toHaveLength(4);
    await history.close();
  });
});
