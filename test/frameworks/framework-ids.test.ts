/**
 * What `{ id }` means in every framework entry: exact (the start of a stored ID is a key of its
 * own, never taken for the longer one), any string the framework uses (`user:42`, an email) kept as
 * its key over a valid session ID, and shared by the handles one process opens on it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { openSessions, PrefixNotIdError, type SessionManager } from '../../src/index.js';
import { openAgentSession, sessionIdFor } from '../../src/frameworks/openai-agents/index.js';
import { openChatHistory } from '../../src/frameworks/langchain/index.js';
import { openChatStore } from '../../src/frameworks/ai-sdk/index.js';
import { ROOT } from '../../torture/proc.js';
import { tmpHome } from '../helpers/tmp-home.js';

const user = (text: string) => ({ role: 'user' as const, content: text });
const uiMessage = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

/** What `chatkeep ARGS` prints over this home. */
function chatkeep(home: string, ...args: string[]): string {
  const done = spawnSync(process.execPath, [join(ROOT, 'bin/chatkeep.js'), ...args], { cwd: home, encoding: 'utf8', env: { ...process.env, CHATKEEP_HOME: join(home, 'data'), NO_COLOR: '1', COLUMNS: '200' } });
  return done.stdout + done.stderr;
}

async function open(home: string): Promise<SessionManager> {
  return openSessions({ home: join(home, 'data'), cwd: home });
}

describe('framework IDs', () => {
  it('takes a key exactly in every entry: `support-ticket` is its own conversation beside `support-ticket-1234`', async () => {
    const home = tmpHome();
    const sessions = await open(home);
    const existing = await sessions.create({ id: 'support-ticket-1234' });
    await existing.append(user('my printer is on fire'));
    await existing.close();
    const prefix = 'support-ticket';
    // Nothing of the longer one is read under the shorter key, and nothing is refused.
    expect(await openChatStore(sessions).then((store) => store.loadChat(prefix))).toEqual([]);
    const agent = await openAgentSession(sessions, { id: prefix });
    expect(await agent.getItems()).toEqual([]);
    await agent.addItems([{ role: 'user', content: 'a ticket of its own' }]);
    await agent.close();
    const history = await openChatHistory(sessions, { id: prefix });
    expect((await history.getMessages()).map((m) => m.content)).toEqual(['a ticket of its own']);
    await history.close();
    const store = await openChatStore(sessions, { holdMs: 0 });
    expect((await store.loadChat(prefix)).length).toBe(1);
    await store.close();
    // Both kept as they were; a library caller's openOrCreate still refuses the start of an ID, as
    // a person typing it may have meant the longer one (the embedder contract holds that).
    const ids = (await sessions.list({ all: true })).map((r) => r.id).sort();
    expect(ids).toEqual(['support-ticket', 'support-ticket-1234']);
    const longer = await sessions.read('support-ticket-1234');
    expect(longer.messages.map((m) => m.content)).toEqual(['my printer is on fire']);
    await expect(sessions.openOrCreate('support-tick')).rejects.toBeInstanceOf(PrefixNotIdError);
    await sessions.close();
  });

  it('user-1 after user-12 and user-12 after user-1: two conversations, in both orders', async () => {
    for (const order of [['user-12', 'user-1'], ['user-1', 'user-12']]) {
      const home = tmpHome();
      const sessions = await open(home);
      for (const key of order) {
        const history = await openChatHistory(sessions, { id: key });
        await history.addMessages([new HumanMessage(`I am ${key}`)]);
        await history.close();
      }
      for (const key of order) {
        const history = await openChatHistory(sessions, { id: key });
        expect((await history.getMessages()).map((m) => m.content), order.join(' then ')).toEqual([`I am ${key}`]);
        await history.close();
      }
      await sessions.close();
    }
  });

  it('keeps `user:42` and `ann@example.com` as each framework\'s key, listed and shown by it', async () => {
    const home = tmpHome();
    let sessions = await open(home);
    const agent = await openAgentSession(sessions, { id: 'user:42' });
    expect(await agent.getSessionId()).toBe('user:42');
    await agent.addItems([{ role: 'user', content: 'hello from the agent' }]);
    await agent.close();
    const history = await openChatHistory(sessions, { id: 'ann@example.com' });
    await history.addMessages([new HumanMessage('hello from langchain'), new AIMessage('hi Ann')]);
    await history.close();
    const store = await openChatStore(sessions, { holdMs: 0 });
    await store.saveChat({ chatId: 'chat/7?x=1', messages: [uiMessage('m1', 'hello from the ai sdk')] });
    await store.close();
    await sessions.close();

    // Another run finds each by its key.
    sessions = await open(home);
    const again = await openAgentSession(sessions, { id: 'user:42' });
    expect(await again.getItems()).toEqual([{ role: 'user', content: 'hello from the agent' }]);
    await again.close();
    expect((await (await openChatHistory(sessions, { id: 'ann@example.com' })).getMessages()).map((m) => m.content)).toEqual(['hello from langchain', 'hi Ann']);
    expect((await (await openChatStore(sessions)).loadChat('chat/7?x=1')).map((m) => m.id)).toEqual(['m1']);
    const ids = ['user:42', 'ann@example.com', 'chat/7?x=1'].map(sessionIdFor);
    expect(ids.every((id) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id))).toBe(true);
    expect(ids[0]).toMatch(/^user-42-[0-9a-f]{12}$/);
    await sessions.close();

    const listed = chatkeep(home, 'sessions', 'list', '--all');
    for (const key of ['user:42', 'ann@example.com', 'chat/7?x=1']) expect(listed).toContain(key);
    expect(chatkeep(home, 'sessions', 'show', ids[1]!)).toContain('ann@example.com');
  });

  it('shares one session between two handles on one ID: the last close releases it', async () => {
    const home = tmpHome();
    const sessions = await open(home);
    const first = await openAgentSession(sessions, { id: 'user:7' });
    const second = await openAgentSession(sessions, { id: 'user:7' });
    expect(second.session).toBe(first.session);
    await first.addItems([user('one')]);
    await first.close();
    // The second handle goes on writing: the first close did not close the session under it.
    await second.addItems([user('two')]);
    expect(sessions.opened(sessionIdFor('user:7'))).toBeDefined();
    await second.close();
    expect(sessions.opened(sessionIdFor('user:7'))).toBeUndefined();
    // Released: another manager (as another process would) takes it.
    const other = await open(home);
    const resumed = await other.resume(sessionIdFor('user:7'));
    expect(resumed.messages.map((m) => m.content)).toEqual(['one', 'two']);
    await resumed.close();
    await other.close();
    await sessions.close();
  });

  it('shares it between adapters too, and with handles opened at the same moment', async () => {
    const home = tmpHome();
    const sessions = await open(home);
    const [agent, history] = await Promise.all([openAgentSession(sessions, { id: 'thread-9' }), openChatHistory(sessions, { id: 'thread-9' })]);
    expect(history.session).toBe(agent.session);
    await agent.close();
    await history.addMessages([new HumanMessage('still here')]);
    await history.close();
    expect(sessions.opened('thread-9')).toBeUndefined();
    await sessions.close();
  });
});
