/** The trash (docs/design.md §7), as every store keeps it: the cases `storeContract` runs. */
import { expect, it } from 'vitest';
import { NotInTrashError, SessionInUseError, TrashedSessionError, UnknownSessionError } from '../../src/session/api/errors.js';
import { eventually } from '../helpers/eventually.js';
import { AT, messageEvent, savedSession, type Harness } from './contract-kit.js';

const minutes = (n: number): Date => new Date(AT.getTime() + n * 60_000);

export function trashCases(h: Harness): void {
  it('trash: out of listings, locate and search; listed in the trash; restored found and resumable under the same ID', async () => {
    const trashedAt = minutes(30);
    const store = await h.open(h.cwd(), { now: () => trashedAt });
    const saved = await savedSession(store, AT, ['apple pie', 'banana'], (s) => {
      s.title = 'fruit';
      s.parentId = 'session-20261122-000000';
      s.forkPoint = 1;
    });
    const id = saved.id;
    const entry = { id, project: store.project.path, title: 'fruit', trashedAt, messageCount: 2, updatedAt: AT, parentId: 'session-20261122-000000', forkPoint: 1 };
    expect(await store.trash.put(id)).toEqual(entry);

    const other = await h.open();
    expect(await other.list(await other.projects())).toEqual([]);
    await expect(other.locate(id)).rejects.toBeInstanceOf(TrashedSessionError);
    await expect(other.locate(id)).rejects.toMatchObject({ message: `Session ${id} is in the trash.`, advice: { to: 'Restore it with:', run: ['sessions', 'restore', id] } });
    expect((await other.searchSessions('apple', [other.project], {})).total).toBe(0);
    expect(await other.trash.list()).toEqual([entry]);
    await expect(other.trash.put(id)).rejects.toBeInstanceOf(TrashedSessionError);

    expect(await other.trash.restore(id)).toEqual({ id, project: other.project });
    expect(await other.trash.list()).toEqual([]);
    expect((await other.list([other.project])).map((r) => r.id)).toEqual([id]);
    expect((await other.searchSessions('apple', [other.project], {})).total).toBe(1);
    const back = await h.openOn(id);
    const lock = await back.lock(id, () => undefined);
    expect((await back.load(id, { now: AT, quarantine: false })).snapshot?.messages.map((m) => m.content)).toEqual(['apple pie', 'banana']);
    await lock.release();
    const again = await other.trash.restore(id).catch((err: unknown) => err);
    expect(again).toBeInstanceOf(NotInTrashError);
    expect((again as NotInTrashError).exitCode).toBe(2);
    expect(again).toMatchObject({ message: `No session \`${id}\` in the trash.`, advice: { to: 'See what is there with:', run: ['sessions', 'trash'] } });
  });

  it('trash is refused (exit 3) while a live process holds the session, and leaves it in place; once the holder is gone it goes', async () => {
    const store = await h.open();
    const { id } = await savedSession(store, AT, ['busy']);
    const mine = await (await h.openOn(id)).lock(id, () => undefined);
    const refused = await store.trash.put(id).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SessionInUseError);
    expect((refused as SessionInUseError).exitCode).toBe(3);
    expect((refused as SessionInUseError).owner).toEqual(mine.owner);
    expect(await mine.stillHeld()).toBe(true);
    await mine.release();

    const child = await h.backing().holdInChild(id, h.cwd());
    const byChild = await store.trash.put(id).catch((err: unknown) => err);
    expect((byChild as SessionInUseError).owner?.pid).toBe(child.pid);
    expect(await store.trash.list()).toEqual([]);
    expect((await store.list([store.project])).map((r) => r.id)).toEqual([id]);
    await child.kill9();
    const trashed = await eventually(() => store.trash.put(id));
    expect(trashed.id).toBe(id);
    expect(await store.list([store.project])).toEqual([]);
  });

  it('a session with no snapshot yet goes to the trash with what its events hold', async () => {
    const store = await h.open();
    const id = await store.reserveId(AT, store.project);
    const lock = await store.lock(id, () => undefined);
    const log = await store.openLog(id, lock);
    await log.append(messageEvent(1, 'user', 'only in the events'), true);
    await log.append(messageEvent(2, 'assistant', 'me too'), true);
    await log.close();
    await lock.release();
    expect(await store.trash.put(id)).toMatchObject({ id, title: null, messageCount: 2 });
  });

  it('empty-trash deletes what was trashed before the cut-off (all without one); listTrash is newest first; an ID is never issued again', async () => {
    let now = minutes(10);
    const store = await h.open(h.cwd(), { now: () => now });
    const elsewhere = await h.open(h.otherCwd(), { now: () => now });
    const old = await savedSession(store, AT, ['old']);
    const recent = await savedSession(elsewhere, minutes(1), ['recent']);
    const kept = await savedSession(store, minutes(2), ['kept']);
    await store.trash.put(old.id);
    now = minutes(20);
    await store.trash.put(recent.id);
    expect((await store.trash.list()).map((t) => [t.id, t.project])).toEqual([
      [recent.id, elsewhere.project.path],
      [old.id, store.project.path],
    ]);

    expect(await store.trash.empty(minutes(15))).toEqual([old.id]);
    expect((await store.trash.list()).map((t) => t.id)).toEqual([recent.id]);
    await expect(store.locate(old.id)).rejects.toBeInstanceOf(UnknownSessionError);
    await expect(store.trash.restore(old.id)).rejects.toBeInstanceOf(NotInTrashError);
    expect(await store.reserveId(AT, store.project)).toBe(`${old.id}-2`);

    expect(await store.trash.empty()).toEqual([recent.id]);
    expect(await store.trash.list()).toEqual([]);
    expect(await store.trash.empty()).toEqual([]);
    expect(await store.reserveId(minutes(1), store.project)).toBe(`${recent.id}-2`);
    expect((await store.list(await store.projects())).map((r) => r.id)).toContain(kept.id);
  });

  it('a session trashed between another process finding it and locking it is refused as in the trash', async () => {
    const store = await h.open();
    const { id } = await savedSession(store, AT, ['moved away']);
    const late = await h.openOn(id); // found it, as the model does before taking the lock
    await store.trash.put(id);
    const refused = await late.lock(id, () => undefined).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(TrashedSessionError);
    expect((refused as TrashedSessionError).exitCode).toBe(2);
    expect(await store.trash.list()).toMatchObject([{ id }]);
  });

  it('the full ID of a trashed session is refused as in the trash, not taken for a prefix of a live one (X-2)', async () => {
    const store = await h.open();
    const first = await savedSession(store, AT, ['the first']);
    const second = await savedSession(store, AT, ['the second, in the same second']);
    expect(second.id).toBe(`${first.id}-2`);
    await store.trash.put(first.id);
    const other = await h.open();
    await expect(other.locate(first.id)).rejects.toBeInstanceOf(TrashedSessionError);
    expect((await other.locate(first.id.slice(0, -2))).id).toBe(second.id);
  });
}
