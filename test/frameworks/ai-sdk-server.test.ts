/**
 * examples/ai-sdk-server.mjs, driven as a browser drives it: a chat made, questions posted, the
 * reply read as the AI SDK's UI message stream, the model being @ai-sdk/openai against the fake
 * Chat Completions server. A client that goes away still gets its reply saved; a kill -9 of the
 * server mid-reply keeps the question and the reply so far, marked unfinished.
 */
import { validateUIMessages, type UIMessage } from 'ai';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { openSessions } from '../../src/index.js';
import { openChatStore } from '../../src/frameworks/ai-sdk/index.js';
import { startFakeLlmServer, type FakeReply } from '../helpers/fake-llm-server.js';
import { startHost } from '../helpers/host-process.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { eventually } from '../helpers/eventually.js';
import { createDatabase } from '../helpers/postgres.js';

const SERVER = fileURLToPath(new URL('../../examples/ai-sdk-server.mjs', import.meta.url));

const question = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

/** Posts a question and reads the reply's stream until `until` is in it (to the end without it); `abort` then goes away. */
async function ask(origin: string, chatId: string, message: UIMessage, until?: string, abort = false): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(`${origin}/api/chat`, { method: 'POST', body: JSON.stringify({ id: chatId, message }), signal: controller.signal });
  expect(res.status).toBe(200);
  const decoder = new TextDecoder();
  let body = '';
  const reader = res.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    body += decoder.decode(read.value, { stream: true });
    if (until !== undefined && body.includes(until)) break;
  }
  if (abort) controller.abort();
  return body;
}

describe.each([
  ['the file store', 'file'],
  ['PostgreSQL (CHATKEEP_STORE)', 'postgres'],
] as const)('examples/ai-sdk-server.mjs on %s: an AI SDK chat server whose chats chatkeep keeps', (_name, kind) => {
  it('saves each question and reply, a reply whose client went away, and after kill -9 mid-reply the question and the reply so far', async () => {
    const home = tmpHome();
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const replies: FakeReply[] = [{ text: ['Sunny ', 'in ', 'Oslo.'] }, { text: ['Rain ', 'tomorrow.'], before: { 1: gate } }, { text: ['Snow ', 'on ', 'Friday.'], hangAfter: 2 }];
    const model = await startFakeLlmServer('openai', replies);
    const store = kind === 'postgres' ? await createDatabase(inject('postgresAdminUrl')) : undefined;
    const server = startHost(SERVER, [], { CHATKEEP_HOME: home, ...(store ? { CHATKEEP_STORE: store } : {}), OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-test', MODEL: 'gpt-fake', PORT: '0' });
    const origin = `http://127.0.0.1:${(await server.line('listening ')).slice('listening '.length)}`;
    const { id } = (await (await fetch(`${origin}/api/chats`, { method: 'POST' })).json()) as { id: string };
    const load = async (): Promise<UIMessage[]> => (await (await fetch(`${origin}/api/chats/${id}`)).json()) as UIMessage[];

    expect(await ask(origin, id, question('u-1', 'Weather in Oslo?'))).toContain('"delta":"Oslo."');
    const first = await load();
    expect(first.map((m) => [m.id.startsWith('msg') ? 'msg…' : m.id, m.role, m.parts.filter((p) => p.type === 'text')])).toEqual([
      ['u-1', 'user', [{ type: 'text', text: 'Weather in Oslo?' }]],
      ['msg…', 'assistant', [{ type: 'text', text: 'Sunny in Oslo.', state: 'done' }]],
    ]);
    expect(await validateUIMessages({ messages: first })).toStrictEqual(first);
    // The model was sent the conversation the store gave back.
    expect(model.requests[0]!.body.messages).toEqual([{ role: 'user', content: 'Weather in Oslo?' }]);

    // The browser goes away after the first words; the server reads the reply to its end and saves it.
    await ask(origin, id, question('u-2', 'And tomorrow?'), '"delta":"Rain "', true);
    open();
    await eventually(async () => expect((await load()).at(-1)!.parts.filter((p) => p.type === 'text')).toEqual([{ type: 'text', text: 'Rain tomorrow.', state: 'done' }]));

    // Killed mid-reply, once the words shown are journaled.
    await ask(origin, id, question('u-3', 'And Friday?'), '"delta":"on "');
    const sessions = await openSessions({ home, cwd: home, ...(store ? { store } : {}) });
    await eventually(async () => expect((await sessions.read(id)).messages.at(-1)!.content).toBe('Snow on '));
    await server.kill9();

    const chat = await (await openChatStore(sessions)).loadChat(id);
    expect(chat.map((m) => m.id.replace(/^msg.*/, 'msg…'))).toEqual(['u-1', 'msg…', 'u-2', 'msg…', 'u-3', `${id}-5`]);
    expect(chat.at(-1)).toEqual({ id: `${id}-5`, role: 'assistant', parts: [{ type: 'text', text: 'Snow on ', state: 'streaming' }] });
    expect((await sessions.read(id)).messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Snow on ', interrupted: true });
    expect(await validateUIMessages({ messages: chat })).toStrictEqual(chat);
  });
});
