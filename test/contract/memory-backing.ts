/** The contract's backing for the memory store: one `MemoryBacking`, another process of the same host that the test can kill. */
import { realpath } from 'node:fs/promises';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import type { SessionStore } from '../../src/session/format/store.js';
import { MemoryBacking } from '../../src/store/memory/backing.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { otherProcess } from '../helpers/memory-sessions.js';
import type { OpenOptions, StoreBacking } from './contract-kit.js';

/** A memory store on `backing` for `cwd`. */
export async function memoryStore(backing: MemoryBacking, cwd: string, options?: OpenOptions): Promise<MemoryStore> {
  const path = await realpath(cwd);
  return new MemoryStore({ backing, project: { key: path, path }, now: options?.now ?? (() => new Date()), redact: options?.redact ?? ((text) => text), interpreter });
}

/** A fresh backing whose stores are `as(store)` (the memory store itself by default). */
export function memoryBacking(as: (store: MemoryStore) => SessionStore = (store) => store): StoreBacking {
  const backing = new MemoryBacking();
  const others = otherProcess(backing);
  return {
    open: async (cwd, options) => as(await memoryStore(backing, cwd, options)),
    // Another process of the same host, which the test can kill.
    holdInChild: async (id) => {
      const held = others.hold(id);
      return { pid: held.owner.pid, kill9: async () => held.kill9() };
    },
    removeSession: async (id) => void backing.sessions.delete(id),
    async writeNewerEvent(id, { seq, ts, type, payload }) {
      backing.sessions.get(id)?.events.push({ seq, line: `{"seq":${seq},"ts":"${ts}","type":"${type}","payload":${payload}}` });
    },
    supersede: async (id) => void others.takeOver(id),
    dispose: async () => undefined,
  };
}
