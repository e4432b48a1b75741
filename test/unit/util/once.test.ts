import { describe, expect, it } from 'vitest';
import { once } from '../../../src/util/once.js';

describe('once', () => {
  it('loads on the first call only, every call getting what it loaded', async () => {
    let loads = 0;
    const load = once(async () => ({ loaded: ++loads }));
    const [a, b] = await Promise.all([load(), load()]);
    expect(await load()).toBe(a);
    expect(b).toBe(a);
    expect(loads).toBe(1);
  });

  it('tries again after a load that failed', async () => {
    let loads = 0;
    const load = once(async () => {
      if (++loads === 1) throw new Error('no such module');
      return 'loaded';
    });
    await expect(load()).rejects.toThrow('no such module');
    expect(await load()).toBe('loaded');
    expect(loads).toBe(2);
  });
});
