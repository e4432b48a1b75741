/**
 * `search(query, { snippets: false })` (the session browser's, at every keystroke): the same
 * sessions, hits and order as a search with snippets, and none made (the file store then reads
 * no message's original text).
 */
import { describe, expect, it } from 'vitest';
import { openSessions } from '../../../src/index.js';
import { tmpHome } from '../../helpers/tmp-home.js';

describe('a search without snippets', () => {
  it('finds what a search with them finds, in the same order, and makes none', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: home });
    for (const content of ['the zanzibar plan', 'zanzibar and Zanzibar again', 'nothing here']) {
      const s = await sessions.create();
      await s.append({ role: 'user', content });
      await s.close();
    }
    const withThem = await sessions.search('zanzibar', { limit: 0 });
    const without = await sessions.search('zanzibar', { limit: 0, snippets: false });
    expect(withThem.results.every((r) => r.snippet !== undefined)).toBe(true);
    expect(without.results.some((r) => r.snippet !== undefined)).toBe(false);
    const shape = (r: (typeof without.results)[number]) => ({ id: r.session.id, hits: r.hits, matched: r.matched });
    expect(without.results.map(shape)).toEqual(withThem.results.map(shape));
    expect(without.total).toBe(2);
  });
});
