import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Agent, MemorySession, OpenAIProvider, run, setTracingDisabled, tool, type AgentInputItem } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openSessions } from '../../src/index.js';
import { ChatkeepAgentSession, openAgentSession } from '../../src/frameworks/openai-agents/index.js';
import { withoutUndefined } from '../../src/convert/lossless.js';
import { SessionInUseError } from '../../src/session/api/errors.js';
import { calls, said, startFakeResponsesServer, type ResponseOutputItem } from '../helpers/fake-responses-server.js';
import { startHost } from '../helpers/host-process.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { AGENT_ITEMS, leaves } from './agent-items.js';

const HOST = fileURLToPath(new URL('./agent-host.mjs', import.meta.url));

setTracingDisabled(true);

/** The script of the weather turn: a tool call, then the answer. */
const WEATHER: ResponseOutputItem[][] = [[calls('fc_1', 'call_1', 'get_weather', { city: 'Oslo' })], [said('msg_1', 'It is sunny in Oslo.')]];

async function forecaster(baseURL: string): Promise<Agent> {
  const model = await new OpenAIProvider({ apiKey: 'sk-test', baseURL, useResponses: true }).getModel('gpt-fake');
  const weather = tool({
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => `Sunny in ${city}`,
  });
  return new Agent({ name: 'forecaster', instructions: 'Answer about the weather.', model, tools: [weather] });
}

/** The items the SDK's own MemorySession holds after running these turns on this script. */
async function reference(script: ResponseOutputItem[][], turns: string[]): Promise<AgentInputItem[]> {
  const server = await startFakeResponsesServer(script);
  const agent = await forecaster(server.baseURL);
  const memory = new MemorySession();
  for (const turn of turns) await run(agent, turn, { session: memory });
  await server.close();
  return memory.getItems();
}

async function reopen(home: string, cwd: string, id: string): Promise<ChatkeepAgentSession> {
  return openAgentSession(await openSessions({ home, cwd }), { id });
}

/** What a host printed as acknowledged by `addItems`, in order. */
function acknowledged(lines: string[]): unknown[] {
  return lines.filter((l) => l.startsWith('stored ')).flatMap((l) => JSON.parse(l.slice('stored '.length)) as unknown[]);
}

describe('chatkeep/openai-agents: an Agents SDK Session kept by chatkeep', () => {
  it('gives back every kind of item deep-equal after the session is closed and resumed', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: home });
    const session = await openAgentSession(sessions);
    await session.addItems(AGENT_ITEMS.slice(0, 5));
    await session.addItems(AGENT_ITEMS.slice(5));
    const id = await session.getSessionId();
    await session.close();

    const again = await reopen(home, home, id);
    const items = await again.getItems();
    expect(items).toStrictEqual(withoutUndefined(AGENT_ITEMS));
    expect(items).toHaveLength(15);
    expect(leaves(AGENT_ITEMS)).toBe(92);
    expect(await again.getItems(3)).toStrictEqual(items.slice(-3));
    expect(await again.getItems(0)).toEqual([]);

    // chatkeep's own readers see the text, the calls and the results as messages.
    const messages = again.session.messages;
    expect(messages.map((m) => m.role)).toEqual([
      'user', 'system', 'user', 'assistant', 'assistant', 'assistant', 'tool', 'tool', 'assistant', 'assistant', 'assistant', 'assistant', 'tool', 'assistant', 'assistant',
    ]);
    expect(messages[0]).toMatchObject({ content: 'What is the weather in Oslo?' });
    expect(messages[4]).toMatchObject({ content: '', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] });
    expect(messages[6]).toMatchObject({ content: 'Sunny, 21 °C', toolCallId: 'call_1' });
    expect(messages[8]).toMatchObject({
      content: 'Sunny and 21 °C in Oslo.\nI cannot describe people in the picture.',
      parts: [{ type: 'text', text: 'Sunny and 21 °C in Oslo.' }, { type: 'refusal', text: 'I cannot describe people in the picture.' }],
      id: 'msg_1',
      status: 'completed',
    });
    expect(messages[1]).toMatchObject({ role: 'system', content: 'Answer in one sentence.' });
    expect(messages[2]!.parts).toMatchObject([{ type: 'text' }, { type: 'image', url: 'https://example.com/fjord.png', detail: 'low' }, { type: 'native', item: { type: 'input_file' } }]);
    expect(messages[3]).toMatchObject({ id: 'rs_1', parts: [{ type: 'reasoning', text: 'The user wants the weather; call the tool.' }] });
    // The native item holds only what the fields do not give back: nothing at all for 4 of them.
    expect(messages.filter((m) => m.native === undefined)).toHaveLength(4);
    expect(messages[1]!.native).toEqual({ format: 'openai-agents', absent: ['type'] });
    await again.close();
    const [row] = await sessions.list();
    expect(row).toMatchObject({ id, title: 'What is the weather in Oslo?', messageCount: 15 });
  });

  it('writes no secret an item holds, at any depth, to disk: it comes back redacted', async () => {
    const home = tmpHome();
    const key = `sk-ant-${'x1Y2z3'.repeat(5)}`;
    const session = await openAgentSession(await openSessions({ home, cwd: home }));
    await session.addItems([
      { role: 'user', content: [{ type: 'input_text', text: `my key is ${key}`, providerData: { note: `also ${key}` } }] },
      { type: 'function_call', callId: 'call_1', name: 'login', arguments: JSON.stringify({ key }), providerData: { raw: [key] } },
    ]);
    const where = session.session.where.files!;
    await session.close();
    const onDisk = readFileSync(where.snapshot, 'utf8') + (existsSync(where.journal) ? readFileSync(where.journal, 'utf8') : '');
    expect(onDisk).not.toContain(key);
    const again = await reopen(home, home, await session.getSessionId());
    const items = await again.getItems();
    await again.close();
    expect(JSON.stringify(items)).not.toContain(key);
    expect(items[0]).toMatchObject({ content: [{ text: 'my key is [REDACTED:anthropic-key]', providerData: { note: 'also [REDACTED:anthropic-key]' } }] });
    expect(items[1]).toMatchObject({ arguments: '{"key":"[REDACTED:anthropic-key]"}', providerData: { raw: ['[REDACTED:anthropic-key]'] } });
  });

  it('reads a conversation another host wrote (chatkeep’s REPL) as the items its messages give, another provider’s reasoning left out', async () => {
    const home = tmpHome();
    const session = await (await openSessions({ home, cwd: home })).create();
    await session.append({ role: 'user', content: 'Weather in Oslo?' });
    await session.append({ role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] });
    await session.append({ role: 'tool', content: 'Sunny', toolCallId: 'call_1' });
    await session.append({
      role: 'assistant',
      provider: 'anthropic',
      content: [{ type: 'reasoning', text: 'Sunny it is.', signature: 'sig' }, { type: 'text', text: 'It is sunny.' }],
    });
    const agentSession = new ChatkeepAgentSession(session);
    const items = await agentSession.getItems();
    expect(items).toStrictEqual([
      { type: 'message', role: 'user', content: 'Weather in Oslo?' },
      { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Let me look.' }] },
      { type: 'function_call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_result', callId: 'call_1', name: 'get_weather', status: 'completed', output: 'Sunny' },
      { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It is sunny.' }] },
    ]);
    expect(await agentSession.getItems(2)).toStrictEqual(items.slice(-2));
    expect(await agentSession.getItems(4)).toStrictEqual(items.slice(-4));
    await session.close();
  });

  it('runs an agent with a tool through run(agent, input, { session }), holding what the SDK’s own MemorySession holds', async () => {
    const home = tmpHome();
    const server = await startFakeResponsesServer([...WEATHER, [said('msg_2', 'Rain tomorrow.')]]);
    const agent = await forecaster(server.baseURL);
    const session = await openAgentSession(await openSessions({ home, cwd: home }));
    const first = await run(agent, 'Weather in Oslo?', { session });
    expect(first.finalOutput).toBe('It is sunny in Oslo.');
    const second = await run(agent, 'And tomorrow?', { session });
    expect(second.finalOutput).toBe('Rain tomorrow.');

    const items = await session.getItems();
    expect(items).toStrictEqual(withoutUndefined(await reference([...WEATHER, [said('msg_2', 'Rain tomorrow.')]], ['Weather in Oslo?', 'And tomorrow?'])));
    expect(items.map((i) => ('role' in i ? i.role : i.type))).toEqual(['user', 'function_call', 'function_call_result', 'assistant', 'user', 'assistant']);
    // The third request carried the whole history the session gave back.
    const input = server.requests[2]!.input as Record<string, unknown>[];
    expect(input.map((i) => i.role ?? i.type)).toEqual(['user', 'function_call', 'function_call_output', 'assistant', 'user']);
    await session.close();
  });

  it('pops the newest item out of what is sent, keeping it in the transcript, and clears by archiving', async () => {
    const home = tmpHome();
    const session = await openAgentSession(await openSessions({ home, cwd: home }));
    await session.addItems(AGENT_ITEMS.slice(0, 4));
    expect(await session.popItem()).toStrictEqual(AGENT_ITEMS[3]);
    expect(await session.getItems()).toStrictEqual(AGENT_ITEMS.slice(0, 3));
    const id = await session.getSessionId();
    await session.close();

    const again = await reopen(home, home, id);
    expect(await again.getItems()).toStrictEqual(AGENT_ITEMS.slice(0, 3));
    expect(again.session.messages).toHaveLength(4);
    expect(again.session.messages[3]!.superseded).toBe(true);
    await again.clearSession();
    expect(await again.getItems()).toEqual([]);
    expect(await again.popItem()).toBeUndefined();
    expect(again.session.archived[0]!.messages).toHaveLength(4);
    expect(await again.getSessionId()).toBe(id);
    await again.close();
  });

  it('after kill -9 between turns, the resumed session holds every item the runner stored, and the next turn runs on it', async () => {
    const home = tmpHome();
    const server = await startFakeResponsesServer([...WEATHER, [said('msg_2', 'Rain tomorrow.')]]);
    const host = startHost(HOST, [home, home, server.baseURL, 'plain']);
    const id = (await host.line('session ')).slice('session '.length);
    host.send('Weather in Oslo?\n');
    await host.line('done ');
    await host.kill9();

    const session = await reopen(home, home, id);
    const items = await session.getItems();
    expect(items).toStrictEqual(acknowledged(host.lines));
    expect(items).toStrictEqual(withoutUndefined(await reference(WEATHER, ['Weather in Oslo?'])));
    expect(session.session.resumeReport.wasInterrupted).toBe(true);
    const next = await run(await forecaster(server.baseURL), 'And tomorrow?', { session });
    expect(next.finalOutput).toBe('Rain tomorrow.');
    expect(await session.getItems()).toHaveLength(6);
    await session.close();
  });

  it('after kill -9 mid-run (a tool that never answers), the session was held until the kill and keeps every item the runner stored', async () => {
    const home = tmpHome();
    const script = [...WEATHER, [calls('fc_9', 'call_9', 'get_weather', { city: 'nowhere' })], [said('msg_3', 'Back again.')]];
    const server = await startFakeResponsesServer(script);
    const host = startHost(HOST, [home, home, server.baseURL, 'stream']);
    const id = (await host.line('session ')).slice('session '.length);
    host.send('Weather in Oslo?\n');
    await host.line('done ');
    host.send('Weather nowhere?\n');
    await host.line('tool {"city":"nowhere"}');
    const sessions = await openSessions({ home, cwd: home });
    await expect(openAgentSession(sessions, { id })).rejects.toBeInstanceOf(SessionInUseError);
    await host.kill9();

    // The SDK hands a run's items over when the run ends: the killed run left none, and no
    // call without its result; the finished run is there whole.
    const session = await openAgentSession(sessions, { id });
    const items = await session.getItems();
    expect(items).toStrictEqual(acknowledged(host.lines));
    expect(items).toStrictEqual(withoutUndefined(await reference(WEATHER, ['Weather in Oslo?'])));
    const next = await run(await forecaster(server.baseURL), 'Still there?', { session, stream: true });
    await next.completed;
    expect(next.finalOutput).toBe('Back again.');
    await session.close();
  });
});
