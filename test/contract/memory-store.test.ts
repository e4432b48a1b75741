/** The store contract against the memory store (a fresh backing per test), as unstorage runs its memory driver. */
import { realpath } from 'node:fs/promises';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { MemoryBacking } from '../../src/store/memory/backing.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { otherProcess } from '../helpers/memory-sessions.js';
import { storeContract } from './store.contract.js';

storeContract('memory', async () => {
  const backing = new MemoryBacking();
  const others = otherProcess(backing);
  return {
    async open(cwd, options) {
      const path = await realpath(cwd);
      return new MemoryStore({ backing, project: { key: path, path }, now: options?.now ?? (() => new Date()), redact: options?.redact ?? ((text) => text), interpreter });
    },
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
});
