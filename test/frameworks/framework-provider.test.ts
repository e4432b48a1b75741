/**
 * A conversation kept through a framework or by a host says which assistant wrote it: the
 * provider and model the host gives, or the model the SDK reports, in `sessions show` and
 * `sessions list`, never chatkeep's offline `echo`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { openSessions, type SessionManager } from '../../src/index.js';
import { openAgentSession } from '../../src/frameworks/openai-agents/index.js';
import { openChatHistory } from '../../src/frameworks/langchain/index.js';
import { openChatStore } from '../../src/frameworks/ai-sdk/index.js';
import { ROOT } from '../../torture/proc.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** What `chatkeep sessions show ID` prints over this home. */
function show(home: string, id: string): string {
  const done = spawnSync(process.execPath, [join(ROOT, 'bin/chatkeep.js'), 'sessions', 'show', id], { cwd: home, encoding: 'utf8', env: { ...process.env, CHATKEEP_HOME: join(home, 'data'), NO_COLOR: '1', COLUMNS: '200' } });
  return done.stdout + done.stderr;
}

async function open(home: string): Promise<SessionManager> {
  return openSessions({ home: join(home, 'data'), cwd: home });
}

describe('the assistant a framework conversation records', () => {
  it('is the model LangChain reports, with its provider', async () => {
    const home = tmpHome();
    const sessions = await open(home);
    const history = await openChatHistory(sessions, { id: 'lc-1' });
    await history.addMessages([new HumanMessage('hi'), new AIMessage({ content: 'hello', response_metadata: { model_name: 'gpt-4o-mini', model_provider: 'openai' } })]);
    await history.close();
    // And given back as it went in: the provider is one of its fields now, not a change to it.
    const again = await openChatHistory(sessions, { id: 'lc-1' });
    expect((await again.getMessages())[1]!.response_metadata).toEqual({ model_name: 'gpt-4o-mini', model_provider: 'openai' });
    await again.close();
    await sessions.close();
    const shown = show(home, 'lc-1');
    expect(shown).toContain('openai gpt-4o-mini');
    expect(shown).not.toContain('echo (offline)');
  });

  it('is the provider the host gives the Agents SDK session and the AI SDK store', async () => {
    const home = tmpHome();
    const sessions = await open(home);
    const agent = await openAgentSession(sessions, { id: 'agent-1', provider: { name: 'openai', model: 'gpt-4.1' } });
    await agent.addItems([{ role: 'user', content: 'hi' }]);
    await agent.close();
    const store = await openChatStore(sessions, { holdMs: 0, provider: { name: 'anthropic', model: 'claude-sonnet-4-5' } });
    await store.saveChat({ chatId: 'chat-1', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] });
    await store.close();
    await sessions.close();
    expect(show(home, 'agent-1')).toContain('openai gpt-4.1');
    expect(show(home, 'chat-1')).toContain('anthropic claude-sonnet-4-5');
    for (const id of ['agent-1', 'chat-1']) expect(show(home, id)).not.toContain('echo (offline)');
  });

  it("is the model a host's assistant message names, when no assistant was chosen", async () => {
    const home = tmpHome();
    const sessions = await open(home);
    const session = await sessions.create();
    await session.append({ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello', model: 'llama3.1', provider: 'ollama' });
    expect(session.provider).toMatchObject({ name: 'ollama', model: 'llama3.1' });
    await session.close();
    const chosen = await sessions.create({ provider: { name: 'openai', model: 'gpt-4o' } });
    // A chosen assistant stays chosen: a reply naming a dated model does not change it.
    await chosen.append({ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello', model: 'gpt-4o-2024-08-06' });
    expect(chosen.provider).toMatchObject({ name: 'openai', model: 'gpt-4o' });
    await chosen.close();
    await sessions.close();
    expect(show(home, session.id)).toContain('ollama llama3.1');
  });
});
