/**
 * A store that provides only its core (docs/design.md §7): the memory store with every capability
 * taken away. The contract holds on the model's defaults (the generic search, no listing cache);
 * a trash it does not keep is refused, saying so, and the input history lives in the process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { NoTrashError } from '../../src/session/api/errors.js';
import type { SessionStore, StoreCore } from '../../src/session/format/store.js';
import { MemoryBacking } from '../../src/store/memory/backing.js';
import type { MemoryStore } from '../../src/store/memory/store.js';
import { memoryBacking, memoryStore } from './memory-backing.js';
import { managerOn } from './contract-kit.js';
import { storeContract } from './store.contract.js';

const CORE: readonly (keyof StoreCore)[] = [
  'reserveId', 'claimId', 'lock', 'inspectLock', 'load', 'openLog', 'discard', 'writeSnapshot', 'snapshotInfo', 'adopt', 'locate', 'projects', 'list', 'close',
];

/** Only `store`'s core: every member a store may leave out is left out. */
function coreOf(store: MemoryStore): StoreCore {
  const core: Record<string, unknown> = {};
  for (const name of CORE) core[name] = (store[name] as (...args: unknown[]) => unknown).bind(store);
  return Object.defineProperties(core, {
    kind: { get: () => store.kind, enumerable: true },
    location: { get: () => store.location, enumerable: true },
    project: { get: () => store.project, enumerable: true },
  }) as unknown as StoreCore;
}

async function coreStore(backing: MemoryBacking, cwd: string): Promise<SessionStore> {
  return coreOf(await memoryStore(backing, cwd));
}

storeContract('a store with only its core', async () => memoryBacking(coreOf), { trash: false, history: false });

let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'chatkeep-core-store-'));
});
afterEach(() => rm(cwd, { recursive: true, force: true }));

it('a store without a trash: trashing is refused, saying so, and the session stays listed and resumable', async () => {
  const sessions = managerOn(await coreStore(new MemoryBacking(), cwd));
  const session = await sessions.create();
  await session.append({ role: 'user', content: 'keep me' });
  await session.close();
  const trashing = sessions.trash(session.id);
  await expect(trashing).rejects.toBeInstanceOf(NoTrashError);
  await expect(trashing).rejects.toMatchObject({ code: 'E_NO_TRASH', message: 'The session store at memory keeps no trash: nothing was moved, restored or removed.' });
  expect((await sessions.list()).map((s) => s.id)).toEqual([session.id]);
  expect(await sessions.listTrash()).toEqual([]);
  const again = await sessions.resume(session.id);
  expect(again.messages.map((m) => m.content)).toEqual(['keep me']);
  await again.close();
});

it('a store without an input history: the chat’s lines are kept for this process, redacted, blank ones skipped', async () => {
  const store = await coreStore(new MemoryBacking(), cwd);
  const sessions = managerOn(store);
  await sessions.history.append('first');
  await sessions.history.append('  ');
  await sessions.history.append('second');
  expect(await sessions.history.load()).toEqual(['first', 'second']);
  expect(await managerOn(store).history.load()).toEqual([]);
});

it('a store without `where` or `projectAt`: a session is where the store is, a project found among its projects', async () => {
  const sessions = managerOn(await coreStore(new MemoryBacking(), cwd));
  const session = await sessions.create();
  await session.append({ role: 'user', content: 'hello' });
  expect(session.where).toEqual({ location: `memory (session ${session.id})` });
  await session.close();
  expect((await sessions.list({ project: cwd })).map((s) => s.id)).toEqual([session.id]);
  expect(await sessions.list({ project: join(cwd, 'elsewhere') })).toEqual([]);
});
