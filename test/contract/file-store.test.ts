/** The store contract against the file store (a fresh data directory per test). */
import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileStore } from '../../src/store/file/file-store.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { layout } from '../../src/store/file/layout.js';
import { holdInChild } from '../helpers/lock-holder.js';
import { storeContract } from './store.contract.js';

/** As the CLI's default (src/store/open.ts): a holder on another host is stale after this long without a heartbeat. */
const STALE_MS = 20_000;

storeContract('file', async () => {
  const home = await mkdtemp(join(tmpdir(), 'chatkeep-contract-home-'));
  return {
    open: (cwd, options) =>
      openFileStore({ interpreter, home, cwd, now: options?.now ?? (() => new Date()), staleMs: STALE_MS, redact: options?.redact ?? ((text) => text) }),
    holdInChild: (id, cwd) => holdInChild('file', home, id, cwd),
    async removeSession(id) {
      for (const project of await readdir(layout.projects(home))) {
        await rm(join(layout.sessions(layout.project(home, project)), id), { recursive: true, force: true });
      }
    },
    async writeNewerEvent(id, { seq, ts, type, payload }) {
      for (const project of await readdir(layout.projects(home))) {
        const dir = join(layout.sessions(layout.project(home, project)), id);
        if (existsSync(dir)) await appendFile(layout.journal(dir), `{"seq":${seq},"ts":"${ts}","type":"${type}","payload":${payload}}\n`);
      }
    },
    async supersede(id) {
      // What a taker does once the holder's heartbeat is older than the stale time: the holder's
      // owner file and lock go, and the session is locked anew (in another store, as another process).
      const other = await openFileStore({ interpreter, home, cwd: home, now: () => new Date(), staleMs: STALE_MS, redact: (text) => text });
      await other.locate(id);
      const dir = other.where(id).files.dir;
      await rm(layout.lockOwner(dir), { force: true });
      await rm(layout.lock(dir), { recursive: true, force: true });
      await other.lock(id, () => undefined);
    },
    dispose: () => rm(home, { recursive: true, force: true }),
  };
});
