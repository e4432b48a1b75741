import { validateUIMessages, type UIMessage } from 'ai';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { SessionInUseError, openSessions } from '../../src/index.js';
import { openChatStore } from '../../src/frameworks/ai-sdk/index.js';
import { startHost } from '../helpers/host-process.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { createDatabase } from '../helpers/postgres.js';
import { UI_CHAT } from './ai-sdk-messages.js';

const HOST = fileURLToPath(new URL('./ai-sdk-host.mjs', import.meta.url));

/** How many journal lines the chat's session holds past its snapshot (what a save wrote). */
async function journalLines(sessions: Awaited<ReturnType<typeof openSessions>>, chatId: string): Promise<number> {
  return (await sessions.opened(chatId)!.status()).unsavedJournalLines;
}

/** Where a test keeps its chats: a data directory, or a PostgreSQL database of its own. */
interface Place {
  home: string;
  /** The store's URL (undefined: the data directory). */
  store: string | undefined;
  open(): ReturnType<typeof openSessions>;
}

async function placeOn(kind: 'file' | 'postgres'): Promise<Place> {
  const home = tmpHome();
  const store = kind === 'postgres' ? await createDatabase(inject('postgresAdminUrl')) : undefined;
  return { home, store, open: () => openSessions({ home, cwd: home, ...(store ? { store } : {}) }) };
}

describe.each([
  ['the file store', 'file'],
  ['PostgreSQL', 'postgres'],
] as const)('chatkeep/ai-sdk on %s: the AI SDK guide’s createChat, loadChat and saveChat kept by chatkeep', (_name, kind) => {
  it('gives back every part of every UIMessage field for field after a reopen, valid for validateUIMessages', async () => {
    const place = await placeOn(kind);
    const sessions = await place.open();
    const store = await openChatStore(sessions);
    const chatId = await store.createChat();
    expect(await store.loadChat(chatId)).toEqual([]);
    await store.saveChat({ chatId, messages: UI_CHAT });
    await store.close();

    const again = await place.open();
    const loaded = await (await openChatStore(again)).loadChat(chatId);
    expect(loaded).toStrictEqual(UI_CHAT);
    // Valid, and validated as the original is (the SDK's schema drops a dynamic tool's title either way).
    expect(await validateUIMessages({ messages: loaded })).toStrictEqual(await validateUIMessages({ messages: UI_CHAT }));

    // A chatkeep session: listed, searchable, its text and tool calls chatkeep's own.
    const stored = (await again.read(chatId)).messages;
    expect(stored.map((m) => [m.role, m.id, m.content])).toEqual([
      ['system', 'sys-1', 'You answer about the weather.'],
      ['user', 'u-1', 'What is the weather in Oslo and Bergen?'],
      ['assistant', 'a-1', 'Oslo is sunny; Bergen has rain.'],
      ['user', 'u-2', 'And tomorrow?'],
    ]);
    expect(stored[2]!.toolCalls?.map((c) => c.id)).toEqual(['call_1', 'call_2', 'call_3', 'call_4', 'call_5', 'call_6', 'call_7', 'call_8', 'call_9']);
    expect(stored[2]!.toolCalls?.[2]).toEqual({ id: 'call_3', name: 'get_weather', arguments: '{"city":"Bergen"}' });
    expect((await again.list()).map((r) => [r.id, r.title])).toEqual([[chatId, 'What is the weather in Oslo and Bergen?']]);
    expect((await again.search('Bergen has rain')).results.map((r) => r.session.id)).toEqual([chatId]);
  });

  it('stores only what changed: nothing for the same array, a changed tool part as that message’s new version, a dropped reply superseded', async () => {
    const place = await placeOn(kind);
    const sessions = await place.open();
    const store = await openChatStore(sessions);
    const chatId = await store.createChat();
    await store.saveChat({ chatId, messages: UI_CHAT });
    expect((await sessions.opened(chatId)!.status()).store).toBe(kind);
    const first = await journalLines(sessions, chatId);
    await store.saveChat({ chatId, messages: structuredClone(UI_CHAT) });
    expect(await journalLines(sessions, chatId)).toBe(first);

    // The tool part of call_2 gets its output: one message stored again, the old version superseded.
    const answered = structuredClone(UI_CHAT);
    answered[2]!.parts[3] = { type: 'tool-get_weather', toolCallId: 'call_2', state: 'output-available', input: { city: 'Oslo' }, output: { sky: 'sun' } };
    await store.saveChat({ chatId, messages: answered });
    expect(await journalLines(sessions, chatId)).toBe(first + 2);
    expect(await store.loadChat(chatId)).toStrictEqual(answered);
    const session = sessions.opened(chatId)!;
    expect(session.messages.map((m) => [m.id, m.superseded === true])).toEqual([
      ['sys-1', false], ['u-1', false], ['a-1', true], ['u-2', false], ['a-1', false],
    ]);

    // Regenerate: the client drops the last question and sends another.
    const regenerated: UIMessage[] = [...answered.slice(0, 3), { id: 'u-3', role: 'user', parts: [{ type: 'text', text: 'And in Tromsø?' }] }];
    await store.saveChat({ chatId, messages: regenerated });
    await store.close();
    expect(await (await openChatStore(await place.open())).loadChat(chatId)).toStrictEqual(regenerated);
    const transcript = (await sessions.read(chatId)).messages;
    expect(transcript.filter((m) => m.superseded).map((m) => m.id)).toEqual(['a-1', 'u-2']);
  });

  it('compares with the chat as stored, never with a copy a caller changed: keys in another order or left undefined store nothing, a loaded message changed in place is stored', async () => {
    const place = await placeOn(kind);
    const sessions = await place.open();
    const store = await openChatStore(sessions);
    const chatId = await store.createChat();
    await store.saveChat({ chatId, messages: UI_CHAT });
    const first = await journalLines(sessions, chatId);

    // The same chat as another client sends it: keys in another order, optional fields undefined.
    const reordered = UI_CHAT.map((m) => ({ parts: m.parts.map((p) => Object.fromEntries(Object.entries(p).reverse())), role: m.role, id: m.id, metadata: m.metadata }));
    await store.saveChat({ chatId, messages: reordered as UIMessage[] });
    expect(await journalLines(sessions, chatId)).toBe(first);

    // What loadChat gives is the caller's: changed in place, it is a changed message to store, and loading again gives the stored one.
    const loaded = await store.loadChat(chatId);
    (loaded[3]!.parts[0] as { text: string }).text = 'And on Sunday?';
    expect((await store.loadChat(chatId))[3]).toStrictEqual(UI_CHAT[3]);
    await store.saveChat({ chatId, messages: loaded });
    expect(await journalLines(sessions, chatId)).toBe(first + 2);
    await store.close();
    const again = await (await openChatStore(await place.open())).loadChat(chatId);
    expect(again).toStrictEqual(loaded);
    expect((await sessions.read(chatId)).messages.filter((m) => !m.superseded).map((m) => m.content).at(-1)).toBe('And on Sunday?');
  });

  it('a message whose secret was redacted, sent again as the client holds it, stores nothing more', async () => {
    const place = await placeOn(kind);
    const sessions = await place.open();
    const store = await openChatStore(sessions);
    const chatId = await store.createChat();
    const key = 'sk-proj-' + 'abcdefghijklmnopqrstuvwxyz0123456789ABCD';
    const chat: UIMessage[] = [{ id: 'u-1', role: 'user', parts: [{ type: 'text', text: `My key is ${key}, keep it safe.` }] }];
    await store.saveChat({ chatId, messages: chat });
    await store.saveChat({ chatId, messages: structuredClone(chat) });
    const answered = [...chat, { id: 'a-1', role: 'assistant', parts: [{ type: 'text', text: 'Noted.' }] } satisfies UIMessage];
    await store.saveChat({ chatId, messages: answered });
    // The question once, never superseded by itself: the transcript as it was said.
    expect(sessions.opened(chatId)!.messages.map((m) => [m.id, m.content, m.superseded === true])).toEqual([
      ['u-1', 'My key is [REDACTED:openai-key], keep it safe.', false],
      ['a-1', 'Noted.', false],
    ]);
    const loaded = await store.loadChat(chatId);
    expect(loaded.map((m) => m.id)).toEqual(['u-1', 'a-1']);
    expect(JSON.stringify(loaded)).not.toContain(key);
    await store.close();
  });

  it('one writer per chat across processes: a save waits for the process writing the chat, or fails naming it, and never interleaves', async () => {
    const place = await placeOn(kind);
    const sessions = await place.open();
    const chatId = 'chat-shared';
    const host = startHost(HOST, [chatId, place.home, place.home, ...(place.store ? [place.store] : [])]);
    await host.line('holding');

    const impatient = await openChatStore(sessions, { waitMs: 0 });
    const refused = await impatient.saveChat({ chatId, messages: UI_CHAT.slice(0, 2) }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SessionInUseError);
    expect((refused as Error).message).toContain(`Session ${chatId} is in use by process`);

    const patient = await openChatStore(sessions, { waitMs: 60_000 });
    const saving = patient.saveChat({ chatId, messages: UI_CHAT.slice(0, 2) });
    host.send('finish\n');
    await host.line('released');
    await saving;
    await patient.close();
    // The other process's reply, whole, then this one's messages: nothing of one inside the other.
    expect((await sessions.read(chatId)).messages.map((m) => [m.id, m.content])).toEqual([
      ['a-host', 'From the other process.'],
      ['sys-1', 'You answer about the weather.'],
      ['u-1', 'What is the weather in Oslo and Bergen?'],
    ]);
  });
});
