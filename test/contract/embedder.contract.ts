/**
 * What a program embedding chatkeep meets, as every store keeps it (docs/design.md §10). IDs it
 * chooses (`create({ id })`, `openOrCreate`), sessions it already holds (resumed again, listed),
 * and the listing row of a held session, which counts what the session holds, no more.
 */
import { expect, it } from 'vitest';
import { BadOptionError, SessionExistsError, SessionOpenHereError, UnknownSessionError } from '../../src/session/api/errors.js';
import type { SessionImpl } from '../../src/session/runtime/session.js';
import { PrefixNotIdError } from '../../src/session/api/adapter-errors.js';
import { AT, event, managerOn, savedSession, type Harness } from './contract-kit.js';

export function embedderCases(h: Harness): void {
  it('embedder: create({ id }) takes the ID the program chose, once; openOrCreate resumes it or creates it', async () => {
    const store = await h.open();
    const sessions = managerOn(store, () => AT);
    const chosen = await sessions.create({ id: 'thread_42', title: 'from the framework' });
    expect(chosen.id).toBe('thread_42');
    await chosen.append({ role: 'user', content: 'first' });
    await expect(sessions.create({ id: 'thread_42' })).rejects.toBeInstanceOf(SessionOpenHereError);
    await chosen.close();
    const again = await sessions.create({ id: 'thread_42' }).catch((err: unknown) => err);
    expect(again).toBeInstanceOf(SessionExistsError);
    expect(again).toMatchObject({ code: 'E_SESSION_EXISTS', exitCode: 2 });
    await expect(sessions.create({ id: '../etc' })).rejects.toMatchObject({ code: 'E_BAD_OPTION', option: 'id' });

    const resumed = await sessions.openOrCreate('thread_42');
    expect(resumed.messages.map((m) => m.content)).toEqual(['first']);
    await resumed.close();
    // The ID is exact: the start of a longer one is refused (a typed error), neither taken for it
    // nor made a second session named like it.
    await expect(sessions.openOrCreate('thread_4')).rejects.toBeInstanceOf(PrefixNotIdError);
    const fresh = await sessions.openOrCreate('thread_7');
    expect(fresh.id).toBe('thread_7');
    expect(fresh.messages).toEqual([]);
    await fresh.close();
    // Closed without a message, a chosen ID is free again (a generated one never is).
    const back = await sessions.openOrCreate('thread_7', { title: 'second try' });
    expect(back.title).toBe('second try');
    await back.append({ role: 'user', content: 'kept now' });
    await back.close();
    const other = managerOn(await h.open(), () => AT);
    expect((await other.list()).map((s) => s.id).sort()).toEqual(['thread_42', 'thread_7']);
    await expect(other.create({ id: 'thread_7' })).rejects.toBeInstanceOf(SessionExistsError);
  });

  it('embedder: resuming a session this program holds says so and the program can have the one it holds', async () => {
    const store = await h.open();
    const sessions = managerOn(store, () => AT);
    const held = await sessions.create();
    await held.append({ role: 'user', content: 'hello' });
    const refused = await sessions.resume(held.id).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SessionOpenHereError);
    expect(refused).toMatchObject({ code: 'E_SESSION_OPEN_HERE', exitCode: 3 });
    expect((refused as Error).message).toBe(`Session ${held.id} is already open in this program: carry on in it, or close it before opening it again.`);
    await expect(sessions.openOrCreate(held.id)).rejects.toBeInstanceOf(SessionOpenHereError);
    await expect(sessions.trash(held.id)).rejects.toBeInstanceOf(SessionOpenHereError);
    expect(sessions.opened(held.id)).toBe(held);
    await held.close();
    expect(sessions.opened(held.id)).toBeUndefined();
    const resumed = await sessions.resume(held.id);
    expect(resumed.messages).toHaveLength(1);
    await resumed.close();
    await expect(sessions.resume('no-such-session')).rejects.toBeInstanceOf(UnknownSessionError);
  });

  it('embedder: a held session is listed with the messages it holds, before and after its row is marked open, with a reply streaming', async () => {
    const store = await h.open();
    const sessions = managerOn(store, () => AT);
    const count = async (): Promise<number | undefined> => (await sessions.list()).find((s) => s.id === id)?.messageCount;
    const stored = async (): Promise<number | undefined> => (await store.list([store.project])).find((r) => r.id === id)?.messageCount;
    const first = await sessions.create();
    const id = first.id;
    await first.append({ role: 'user', content: 'one' });
    await first.append({ role: 'assistant', content: 'two' });
    await first.close();

    // Another session, newer than the first until the first is written to again.
    let clock = AT.getTime();
    const tick = managerOn(store, () => new Date((clock += 1000)));
    const newer = await tick.create();
    await newer.append({ role: 'user', content: 'newer' });
    await newer.close();

    const session = (await tick.resume(id)) as SessionImpl;
    expect(await count()).toBe(2);
    for (const content of ['three', 'four', 'five']) await session.append({ role: content === 'four' ? 'assistant' : 'user', content });
    expect(await count()).toBe(5);
    // Listed first now: it changed last (before its row in the store says so).
    expect((await tick.list()).map((s) => s.id)).toEqual([id, newer.id]);
    // What a resume does once the prompt is up: the store's row is marked open; the store's own listing (another process's) then counts 5, not 8.
    await session.touchRow();
    expect(await stored()).toBe(5);
    expect(await count()).toBe(5);
    const reply = session.beginReply();
    await reply.push('a reply still being written ');
    expect(await count()).toBe(5);
    expect(await stored()).toBe(5);
    await reply.finish();
    expect(await count()).toBe(6);
    await session.close();
    expect(await count()).toBe(6);
    expect(await stored()).toBe(6);
  });

  it('embedder: options a store call does not take are refused with a typed error naming them', async () => {
    const sessions = managerOn(await h.open(), () => AT);
    const err = await sessions.list({ all: 'yes' } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadOptionError);
    expect((err as Error).message).toBe('list: `all` takes true or false, not "yes".');
    await expect(sessions.create({ titel: 'typo' } as never)).rejects.toThrow('create: there is no option `titel`; the options are id, title, provider.');
    await expect(sessions.search(5 as never)).rejects.toThrow('search: `query` takes a string, not 5.');
    await expect(sessions.fork('x', { at: -1 })).rejects.toThrow('fork: `at` takes a whole number ≥ 0, not -1.');
    const session = await sessions.create();
    await expect(session.setTitle(5 as never)).rejects.toThrow('setTitle: `title` takes a string or null, not 5.');
    await expect(session.save({ ifChanged: 1 } as never)).rejects.toMatchObject({ code: 'E_BAD_OPTION', option: 'ifChanged' });
    await expect(session.setProvider({ name: 'echo' } as never)).rejects.toMatchObject({ code: 'E_BAD_OPTION', option: 'provider' });
    await session.close();
  });

  it('embedder: a new session its program left without closing it and without a message is discarded by the next listing', async () => {
    const store = await h.open();
    const orphan = await store.reserveId(AT, store.project);
    const lock = await store.lock(orphan, () => undefined);
    const log = await store.openLog(orphan, lock);
    await log.append(event(1, 'title', { title: 'no message ever', source: 'user' }), true);
    await log.close();
    await lock.release();
    // An earlier build's empty session has a snapshot: it is kept, reachable by ID (docs/design.md §3).
    const earlier = await savedSession(store, new Date(AT.getTime() + 1000), []);
    const other = await h.open();
    const sessions = managerOn(other, () => AT);
    // Its program ended without close(): here, another process takes it and is killed.
    for (const id of [orphan, earlier.id]) await (await h.backing().holdInChild(id, h.cwd())).kill9();
    expect((await sessions.list({ empty: true })).map((s) => s.id)).toEqual([earlier.id]);
    await expect(other.locate(orphan)).rejects.toBeInstanceOf(UnknownSessionError);
    expect((await other.locate(earlier.id)).id).toBe(earlier.id);
    // Its ID is not issued again.
    await expect(sessions.create({ id: orphan })).rejects.toBeInstanceOf(SessionExistsError);
  });
}
