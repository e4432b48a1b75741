/**
 * What the library promises a program that embeds it: several messages in one `append`, a tool
 * result that names its call, typed refusals for a missing ID and for a closed manager, and the
 * framework adapters' error exported where a program imports the others.
 */
import { describe, expect, it } from 'vitest';
import * as chatkeep from '../../../src/index.js';
import { BadOptionError, InvalidMessageError, SessionsClosedError, openSessions } from '../../../src/index.js';
import { UnstorableItemError } from '../../../src/convert/lossless.js';
import { tmpHome } from '../../helpers/tmp-home.js';

async function opened() {
  const cwd = tmpHome('chatkeep-project-');
  const sessions = await openSessions({ home: tmpHome(), cwd });
  return sessions;
}

describe('session.append', () => {
  it('stores every message it is given, in order, and each comes back on resume', async () => {
    const sessions = await opened();
    const session = await sessions.create();
    const last = await session.append({ role: 'user', content: 'one' }, { role: 'assistant', content: 'two' }, { role: 'user', content: 'three' });
    expect(last.content).toBe('three');
    expect(session.messages.map((m) => m.content)).toEqual(['one', 'two', 'three']);
    await session.close();
    const again = await sessions.resume(session.id);
    expect(again.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'one'],
      ['assistant', 'two'],
      ['user', 'three'],
    ]);
    await again.close();
  });

  it('writes none of them when one is bad', async () => {
    const sessions = await opened();
    const session = await sessions.create();
    await expect(session.append({ role: 'user', content: 'fine' }, { role: 'robot' as never, content: 'bad' })).rejects.toBeInstanceOf(InvalidMessageError);
    expect(session.messages).toEqual([]);
    await session.close();
  });

  it('refuses a tool result without the ID of the call it answers', async () => {
    const sessions = await opened();
    const session = await sessions.create();
    await session.append({ role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'date', arguments: '{}' }] });
    const refused = session.append({ role: 'tool', content: '2026-11-28', name: 'date' });
    await expect(refused).rejects.toBeInstanceOf(InvalidMessageError);
    await expect(refused).rejects.toMatchObject({ field: 'toolCallId', code: 'E_INVALID_MESSAGE' });
    await session.append({ role: 'tool', content: '2026-11-28', name: 'date', toolCallId: 'call_1' });
    expect(session.messages.map((m) => m.role)).toEqual(['assistant', 'tool']);
    await session.close();
  });
});

describe('the manager', () => {
  it('refuses resume() without an ID as a bad argument, not a crash', async () => {
    const sessions = await opened();
    const refused = (sessions.resume as (id?: string) => Promise<unknown>)();
    await expect(refused).rejects.toBeInstanceOf(BadOptionError);
    await expect(refused).rejects.toMatchObject({ code: 'E_BAD_OPTION', call: 'resume', option: 'idOrPrefix' });
  });

  it('refuses every call once closed, with a typed error, and a second close does nothing', async () => {
    const sessions = await opened();
    const session = await sessions.create();
    await session.append({ role: 'user', content: 'hi' });
    await session.close();
    await sessions.close();
    await expect(sessions.list()).rejects.toBeInstanceOf(SessionsClosedError);
    await expect(sessions.create()).rejects.toBeInstanceOf(SessionsClosedError);
    await expect(sessions.resume(session.id)).rejects.toMatchObject({ code: 'E_SESSIONS_CLOSED' });
    await expect(sessions.read(session.id)).rejects.toBeInstanceOf(SessionsClosedError);
    await expect(sessions.close()).resolves.toBeUndefined();
  });
});

describe("chatkeep's exports", () => {
  it('include UnstorableItemError, the class the framework adapters throw', () => {
    expect(chatkeep.UnstorableItemError).toBe(UnstorableItemError);
    expect(new UnstorableItemError('LangChain', 'a cycle')).toBeInstanceOf(chatkeep.UserError);
  });
});
