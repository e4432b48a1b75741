/**
 * As every store keeps it: a session exists once it holds a message (docs/design.md §3).
 * A new session that never held one is discarded on close (not listed, not found by ID, its ID
 * never issued again); empty sessions an earlier build left are hidden from listings and from
 * `latest()` (`-c`), yet still read by ID and listed with `empty: true`.
 */
import { expect, it } from 'vitest';
import { UnknownSessionError } from '../../src/session/api/errors.js';
import { AT, event, managerOn, messageEvent, savedSession, type Harness } from './contract-kit.js';

const later = (seconds: number): Date => new Date(AT.getTime() + seconds * 1000);

export function emptySessionCases(h: Harness): void {
  it('empty sessions: a new one closed without a message keeps nothing but its ID, which is never issued again', async () => {
    const store = await h.open();
    const sessions = managerOn(store, () => AT);
    const empty = await sessions.create({ provider: { name: 'echo', model: null } });
    await empty.setTitle('chosen, but no message');
    await empty.reset();
    expect(await empty.save()).toMatchObject({ saved: false, empty: true });
    expect(await empty.close()).toMatchObject({ saved: false, empty: true, id: empty.id });

    const other = await h.open();
    await expect(other.locate(empty.id)).rejects.toBeInstanceOf(UnknownSessionError);
    expect(await other.list([other.project])).toEqual([]);
    expect(await managerOn(other, () => AT).list({ empty: true })).toEqual([]);
    // Same second: the next session takes `-2`, as after any session that ever had the ID.
    const next = await sessions.create();
    expect(next.id).toBe(`${empty.id}-2`);
    await next.append({ role: 'user', content: 'now there is a message' });
    expect(await next.close()).toMatchObject({ saved: true, messageCount: 1 });
    expect((await other.list([other.project])).map((r) => r.id)).toEqual([next.id]);
  });

  it('empty sessions: a store refuses to discard a session whose events hold a message, keeping it whole', async () => {
    const store = await h.open();
    const id = await store.reserveId(AT, store.project);
    const lock = await store.lock(id, () => undefined);
    const log = await store.openLog(id, lock);
    await log.append(event(1, 'provider', { name: 'echo', model: null }), true);
    await log.append(messageEvent(2, 'user', 'kept'), true);
    await expect(store.discard(id, lock)).rejects.toThrow();
    await log.close();
    await lock.release();
    const other = await h.openOn(id);
    expect((await other.load(id, { now: AT, quarantine: false })).events.map((e) => e.type)).toEqual(['provider', 'message']);
  });

  it('empty sessions: those an earlier build left are hidden from listings and latest(), read by ID, listed with empty: true', async () => {
    const store = await h.open();
    const kept = await savedSession(store, AT, ['hello', 'hi']);
    // What earlier builds left: a closed snapshot without messages, newer than the real session.
    const left = await savedSession(store, later(60), []);
    const cleared = await savedSession(store, later(120), [], (s) => {
      s.archived = [{ archivedAt: later(100), messages: [{ role: 'user', content: 'cleared by /reset', timestamp: AT }], summary: null, stats: { messageCount: 1, inputTokens: 0, outputTokens: 0 } }];
    });
    const sessions = managerOn(await h.open(), () => later(200));
    // A session whose messages were all cleared by /reset still holds them: it is listed.
    expect((await sessions.list()).map((r) => r.id)).toEqual([cleared.id, kept.id]);
    expect((await sessions.latest())?.id).toBe(cleared.id);
    expect((await sessions.list({ empty: true })).map((r) => r.id)).toEqual([cleared.id, left.id, kept.id]);
    expect((await sessions.read(left.id)).messages).toEqual([]);
    expect((await sessions.resolve(left.id)).id).toBe(left.id);
  });
}
