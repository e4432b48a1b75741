/**
 * The contract every store keeps (docs/design.md §7): one suite, run against each store
 * by a few lines (`postgres-store.test.ts`, the file store's beside it), each store adding only
 * its own cases. It speaks only the `SessionStore` interface, plus the few things a test must do
 * from outside (another process holding a lock, killed; a session deleted by hand). Stores are
 * used as the model uses them (`withDefaults`): where a store leaves a capability out, its cases
 * run on the model's default (the generic search), and the cases of a capability with no default
 * (a trash, an input history kept across processes) run where the store has it (`Provides`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { AmbiguousIdError, FutureSchemaError, InvalidIdError, SessionInUseError, UnknownSessionError } from '../../src/session/api/errors.js';
import type { SessionStore, WriterLock } from '../../src/session/format/store.js';
import { withDefaults, type WholeStore } from '../../src/session/runtime/store-defaults.js';
import { searchRows } from '../../src/search/generic-search.js';
import type { SessionSnapshot } from '../../src/session/api/data.js';
import { AT, event, managerOn, snapshotOf, type Harness, type OpenOptions, type StoreBacking } from './contract-kit.js';
import { searchCases } from './search.contract.js';
import { trashCases } from './trash.contract.js';
import { futureEventCases } from './future-events.contract.js';
import { graphEventCases } from './graph-events.contract.js';
import { newerBuildEventCases } from './newer-build-events.contract.js';
import { fenceCases } from './fence.contract.js';
import { emptySessionCases } from './empty.contract.js';
import { agentMessageCases } from './agent-messages.contract.js';
import { embedderCases } from './embedder.contract.js';

/** Capabilities whose cases need the store's own: a trash, an input history kept across processes. */
export interface Provides {
  trash: boolean;
  history: boolean;
}

export function storeContract(name: string, makeBacking: () => Promise<StoreBacking>, provides: Provides = { trash: true, history: true }): void {
  contractSuite(`SessionStore contract: ${name}`, makeBacking, (harness) => storeCases(harness, provides));
}

/** Only the search cases, on a backing of their own (a PostgreSQL server without `pg_trgm`). */
export function searchContract(name: string, makeBacking: () => Promise<StoreBacking>): void {
  contractSuite(`SessionStore search contract: ${name}`, makeBacking, (harness) => searchCases(harness));
}

/** A describe block whose cases get a fresh backing and directories each, and stores closed after them. */
function contractSuite(title: string, makeBacking: () => Promise<StoreBacking>, cases: (harness: Harness) => void): void {
  describe(title, () => {
    let backing: StoreBacking;
    let cwd: string;
    let otherCwd: string;
    const opened: SessionStore[] = [];
    const open = async (dir = cwd, options?: OpenOptions): Promise<WholeStore> => {
      const store = await backing.open(dir, options);
      opened.push(store);
      return withDefaults(store, { now: options?.now ?? (() => new Date()), redact: options?.redact ?? ((text) => text), searchRows });
    };
    const openOn = async (id: string, dir = cwd): Promise<WholeStore> => {
      const store = await open(dir);
      expect((await store.locate(id)).id).toBe(id);
      return store;
    };
    const harness: Harness = { open, openOn, backing: () => backing, cwd: () => cwd, otherCwd: () => otherCwd };

    beforeEach(async () => {
      backing = await makeBacking();
      cwd = await mkdtemp(join(tmpdir(), 'chatkeep-contract-'));
      otherCwd = await mkdtemp(join(tmpdir(), 'chatkeep-contract-other-'));
    });
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      await backing.dispose();
      await rm(cwd, { recursive: true, force: true });
      await rm(otherCwd, { recursive: true, force: true });
    });
    cases(harness);
  });
}

function storeCases(h: Harness, provides: Provides): void {
  const { open, openOn } = h;
  const backing = (): StoreBacking => h.backing();
  const cwd = (): string => h.cwd();
  const otherCwd = (): string => h.otherCwd();
  const noLoss = (): void => undefined;

  it('reserves IDs from the UTC clock, -2, -3 on a clash, never reissued even after the session is gone', async () => {
    const a = await open();
    const b = await open();
    expect(await a.reserveId(AT, a.project)).toBe('session-20261123-102030');
    expect(await b.reserveId(AT, b.project)).toBe('session-20261123-102030-2');
    await backing().removeSession('session-20261123-102030');
    expect((await a.list([a.project])).map((r) => r.id)).toEqual(['session-20261123-102030-2']);
    expect(await a.reserveId(AT, a.project)).toBe('session-20261123-102030-3');
  });

  it('appends events and loads them back as written, oldest first', async () => {
    const store = await open();
    const id = await store.reserveId(AT, store.project);
    const lock = await store.lock(id, noLoss);
    const log = await store.openLog(id, lock);
    const events = [
      event(1, 'message', { role: 'user', content: 'héllo 👋 "quoted" \\ back\u0000slash', nested: { list: [1, 2.5, null, true] } }),
      event(2, 'delta', { text: 'par' }),
      event(3, 'delta', { text: 'tial' }),
      event(4, 'message', { role: 'assistant', content: 'partial' }),
      event(5, 'title', { title: 'x' }),
    ];
    await log.append(events[0]!, true);
    await Promise.all([log.append(events[1]!, false), log.append(events[2]!, false)]);
    await log.append(events[3]!, true);
    await log.append(events[4]!, true);
    await log.close();
    const loaded = await (await openOn(id)).load(id, { now: AT, quarantine: false });
    expect(loaded.events).toEqual(events);
    expect(loaded.snapshot).toBeUndefined();
    expect(loaded.damage).toEqual([]);
    await lock.release();
  });

  it('writes a snapshot, keeps the events past it, and forgets the events a snapshot holds once compacted', async () => {
    const store = await open();
    const id = await store.reserveId(AT, store.project);
    const lock = await store.lock(id, noLoss);
    const log = await store.openLog(id, lock);
    for (let seq = 1; seq <= 3; seq++) await log.append(event(seq, 'message', { role: 'user', content: `m${seq}` }), true);
    const snapshot = snapshotOf(id, store.project.path, 2, ['m1', 'm2']);
    const bytes = await store.writeSnapshot(id, snapshot, lock);
    expect(bytes).toBeGreaterThan(0);
    expect((await store.snapshotInfo(id))?.bytes).toBe(bytes);
    const loaded = await (await openOn(id)).load(id, { now: AT, quarantine: false });
    expect(loaded.snapshot).toEqual(snapshot);
    expect(loaded.snapshot?.messages[1]?.timestamp).toBeInstanceOf(Date);
    expect(loaded.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    // As the model compacts while the session runs: once a snapshot holds every event (the file store then empties its journal).
    const whole: SessionSnapshot = { ...snapshotOf(id, store.project.path, 3, ['m1', 'm2', 'm3']), status: 'open' };
    await store.writeSnapshot(id, whole, lock);
    await log.compact(3);
    await log.append(event(4, 'message', { role: 'assistant', content: 'm4' }), true);
    const again = await (await openOn(id)).load(id, { now: AT, quarantine: false });
    expect(again.snapshot).toEqual(whole);
    expect(again.events.map((e) => e.seq)).toEqual([4]);
    await log.close();
    await lock.release();
  });

  it('after a closing snapshot, keeps or forgets the events it holds (never one past it), and the next running snapshot forgets them', async () => {
    const store = await open();
    const id = await store.reserveId(AT, store.project);
    const lock = await store.lock(id, noLoss);
    const log = await store.openLog(id, lock);
    for (let seq = 1; seq <= 2; seq++) await log.append(event(seq, 'message', { role: 'user', content: `m${seq}` }), true);
    const closing = snapshotOf(id, store.project.path, 2, ['m1', 'm2']);
    await store.writeSnapshot(id, closing, lock);
    await log.compact(2);
    await log.close();
    await lock.release();
    const loaded = await (await openOn(id)).load(id, { now: AT, quarantine: false });
    expect(loaded.snapshot).toEqual(closing);
    // Those it keeps are exactly the ones the snapshot holds: every reader skips them (seq ≤ journalSeq).
    expect(loaded.events.every((e) => e.seq <= 2)).toBe(true);
    // Resumed: a running snapshot holding them all forgets them.
    const again = await store.lock(id, noLoss);
    const reopened = await store.openLog(id, again);
    await reopened.append(event(3, 'message', { role: 'assistant', content: 'm3' }), true);
    await store.writeSnapshot(id, { ...snapshotOf(id, store.project.path, 3, ['m1', 'm2', 'm3']), status: 'open' }, again);
    await reopened.compact(3);
    expect((await (await openOn(id)).load(id, { now: AT, quarantine: false })).events).toEqual([]);
    await reopened.close();
    await again.release();
  });

  it('refuses a snapshot of a newer schemaVersion, and leaves it as it was', async () => {
    const store = await open();
    const id = await store.reserveId(AT, store.project);
    const lock = await store.lock(id, noLoss);
    const newer = { ...snapshotOf(id, store.project.path, 0, ['from the future']), schemaVersion: 99, toolVersion: '9.0.0' };
    const bytes = await store.writeSnapshot(id, newer, lock);
    await lock.release();
    const reader = await openOn(id);
    await expect(reader.load(id, { now: AT, quarantine: true })).rejects.toBeInstanceOf(FutureSchemaError);
    await expect(reader.load(id, { now: AT, quarantine: true })).rejects.toThrow(/schemaVersion 99.*chatkeep ≥ 9\.0\.0/);
    expect((await reader.snapshotInfo(id))?.bytes).toBe(bytes);
  });

  it('lets one writer hold a session: a second is refused, naming the holder, until it lets go', async () => {
    const a = await open();
    const id = await a.reserveId(AT, a.project);
    const b = await openOn(id);
    expect(await b.inspectLock(id)).toEqual({ state: 'free' });
    const lock = await a.lock(id, noLoss);
    const refusal = await b.lock(id, noLoss).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refusal).toBeInstanceOf(SessionInUseError);
    expect((refusal as SessionInUseError).owner).toEqual(lock.owner);
    expect((refusal as SessionInUseError).exitCode).toBe(3);
    expect((refusal as Error).message).toContain(`process ${process.pid} on ${lock.owner.host}`);
    expect(await b.inspectLock(id)).toEqual({ state: 'held', owner: lock.owner });
    expect(await lock.stillHeld()).toBe(true);
    await lock.release();
    expect(await lock.stillHeld()).toBe(false);
    expect(await b.inspectLock(id)).toEqual({ state: 'free' });
    const second: WriterLock = await b.lock(id, noLoss);
    expect(await second.stillHeld()).toBe(true);
    await second.release();
  });

  it('frees the lock of a holder killed with SIGKILL: the next taker gets it, no stale wait', async () => {
    const store = await open();
    const id = await store.reserveId(AT, store.project);
    const child = await backing().holdInChild(id, cwd());
    const refusal = await store.lock(id, noLoss).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(SessionInUseError);
    expect((refusal as SessionInUseError).owner?.pid).toBe(child.pid);
    await child.kill9();
    const state = await eventually(async () => {
      const s = await store.inspectLock(id);
      if (s.state === 'held') throw new Error('still held');
      return s;
    });
    expect(state).toMatchObject({ state: 'dead', owner: { pid: child.pid } });
    const rows = await store.list([store.project]);
    expect(rows.find((r) => r.id === id)?.status).toBe('interrupted');
    const lock = await store.lock(id, noLoss);
    expect(await lock.stillHeld()).toBe(true);
    expect(await store.inspectLock(id)).toEqual({ state: 'held', owner: lock.owner });
    await lock.release();
  });

  it('lists a project’s sessions newest first with live statuses, and finds sessions by ID or prefix in any project', async () => {
    const here = await open();
    const there = await open(otherCwd());
    const older = await here.reserveId(AT, here.project);
    const newer = await here.reserveId(new Date(AT.getTime() + 60_000), here.project);
    const elsewhere = await there.reserveId(new Date(AT.getTime() + 120_000), there.project);
    const closing = await here.lock(older, noLoss);
    await here.writeSnapshot(older, snapshotOf(older, here.project.path, 0, ['a', 'b']), closing);
    await closing.release();
    const holding = await here.lock(newer, noLoss);
    const rows = await here.list([here.project]);
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      [newer, 'open'],
      [older, 'closed'],
    ]);
    expect(rows[1]).toMatchObject({ title: 'a title', messageCount: 2, project: here.project.path });
    expect((await here.projects())[0]).toEqual(here.project);
    expect((await here.projects()).length).toBe(2);
    const all = await here.list(await here.projects());
    expect(all.map((r) => r.id)).toEqual([elsewhere, newer, older]);
    expect(await here.locate(elsewhere)).toEqual({ id: elsewhere, project: there.project });
    expect((await here.locate('session-20261123-1022')).id).toBe(elsewhere);
    await expect(here.locate('session-20261123')).rejects.toBeInstanceOf(AmbiguousIdError);
    await expect(here.locate('session-1999')).rejects.toBeInstanceOf(UnknownSessionError);
    // Validated once, by the manager, before any store builds a path or a query from it.
    await expect(managerOn(here).resolve('../etc')).rejects.toBeInstanceOf(InvalidIdError);
    await holding.release();
  });

  // A store without its own input history has the model's, for one process (store-defaults.ts): no case here.
  if (provides.history) it('keeps the project’s input history, oldest first, redacted, blank lines skipped', async () => {
    const store = await open(cwd(), { redact: (text) => text.replace(/sk-\w+/g, '[redacted]') });
    await store.history.append('first');
    await store.history.append('   ');
    await store.history.append('two\nlines with sk-abc123');
    await store.history.append('third');
    expect(await (await open()).history.load()).toEqual(['first', 'two\nlines with [redacted]', 'third']);
    expect(await (await open(otherCwd())).history.load()).toEqual([]);
  });

  if (provides.trash) trashCases(h);
  searchCases(h);
  futureEventCases(h);
  graphEventCases(h);
  newerBuildEventCases(h);
  fenceCases(h);
  emptySessionCases(h);
  agentMessageCases(h);
  embedderCases(h);
}
