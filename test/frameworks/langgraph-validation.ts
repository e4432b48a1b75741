/**
 * LangGraph's own checkpointer suite (`@langchain/langgraph-checkpoint-validation`, about 718
 * tests) against `chatkeep/langgraph`, each checkpointer on a store of its own. The suite calls
 * vitest's globals; this file's tests run with them set, as the package's CLI would.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validate } from '@langchain/langgraph-checkpoint-validation';
import { openSessions } from '../../src/index.js';
import { openCheckpointSaver, type ChatkeepSaver } from '../../src/frameworks/langgraph/index.js';

Object.assign(globalThis, { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it });

/** Runs the suite with each checkpointer over `sessions` opened by `open` (the store's way in), closed by `close`. */
export function validateOn(name: string, open: (home: string) => Promise<{ store?: string }>): void {
  const opened = new Map<ChatkeepSaver, { home: string; sessions: Awaited<ReturnType<typeof openSessions>> }>();
  validate<ChatkeepSaver>({
    checkpointerName: name,
    async createCheckpointer() {
      const home = realpathSync(mkdtempSync(join(tmpdir(), 'chatkeep-langgraph-')));
      const sessions = await openSessions({ home, cwd: home, ...(await open(home)) });
      const saver = await openCheckpointSaver(sessions);
      opened.set(saver, { home, sessions });
      return saver;
    },
    async destroyCheckpointer(saver) {
      await saver.close();
      const { home, sessions } = opened.get(saver)!;
      await sessions.close();
      rmSync(home, { recursive: true, force: true });
    },
  });
}
