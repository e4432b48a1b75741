import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStore } from '../../../src/store/memory/store.js';
import { memorySessions } from '../../helpers/memory-sessions.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('list({ limit })', () => {
  it('reads the store once when it holds fewer sessions than the limit', async () => {
    const home = memorySessions();
    for (let i = 0; i < 3; i++) {
      await home.stored({ id: `session-20261122-14300${i}`, title: `t${i}`, messages: [{ role: 'user', content: `hello ${i}`, timestamp: home.now() }] });
      home.advance(1_000);
    }
    const reads = vi.spyOn(MemoryStore.prototype, 'list');
    const rows = await home.sessions.list({ limit: 50 });
    expect(rows.map((r) => r.title)).toEqual(['t2', 't1', 't0']);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('reads every row when the newest hold too few that are shown and the store may have more', async () => {
    const home = memorySessions();
    await home.stored({ id: 'session-20261122-143000', title: 'kept', messages: [{ role: 'user', content: 'hello', timestamp: home.now() }] });
    home.advance(1_000);
    // Newer, but without a message: never shown.
    for (let i = 1; i <= 2; i++) {
      await home.stored({ id: `session-20261122-14300${i}`, title: `empty ${i}`, messages: [] });
      home.advance(1_000);
    }
    const reads = vi.spyOn(MemoryStore.prototype, 'list');
    expect((await home.sessions.list({ limit: 2 })).map((r) => r.title)).toEqual(['kept']);
    expect(reads).toHaveBeenCalledTimes(2);
  });
});
