/** One writer is a fence (docs/design.md §12): what every store refuses to a writer whose epoch is superseded. */
import { expect, it } from 'vitest';
import { LockSupersededError } from '../../src/session/api/errors.js';
import { messageEvent, savedSession, snapshotOf, type Harness } from './contract-kit.js';
import { AT } from './contract-kit.js';

export function fenceCases(h: Harness): void {
  it('fence: once another process took the session over, its old holder appends, snapshots and compacts nothing', async () => {
    const saved = await savedSession(await h.open(), AT, ['one']);
    const id = saved.id;
    const store = await h.openOn(id);
    const lock = await store.lock(id, () => undefined);
    expect(lock.epoch).toEqual(expect.any(Number));
    const log = await store.openLog(id, lock);
    await log.append(messageEvent(1, 'user', 'before the takeover'), true);

    await h.backing().supersede(id);
    await expect(log.append(messageEvent(2, 'user', 'after the takeover'), true)).rejects.toBeInstanceOf(LockSupersededError);
    await expect(store.writeSnapshot(id, snapshotOf(id, store.project.path, 2, ['one', 'overwritten']), lock)).rejects.toBeInstanceOf(LockSupersededError);
    await expect(log.compact(1)).rejects.toBeInstanceOf(LockSupersededError);
    await log.close();

    const loaded = await (await h.openOn(id)).load(id, { now: AT, quarantine: false });
    expect(loaded.snapshot?.messages.map((m) => m.content)).toEqual(['one']);
    expect(loaded.events.map((e) => (e.payload.message as { content: string }).content)).toEqual(['before the takeover']);
  });

  it('fence: each taking of a lock has a higher epoch than the one before', async () => {
    const saved = await savedSession(await h.open(), AT, ['one']);
    const store = await h.openOn(saved.id);
    const first = await store.lock(saved.id, () => undefined);
    await first.release();
    const second = await store.lock(saved.id, () => undefined);
    expect(second.epoch).toBeGreaterThan(first.epoch!);
    await second.release();
  });
}
