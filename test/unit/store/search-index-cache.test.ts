/**
 * The file store keeps a project's search index open between searches (search-index-cache.ts).
 * Searches run side by side (the browser starts one per keystroke): two that read the same file
 * at once must leave one handle open, not one each that only the garbage collector would close
 * (Node's DEP0137 warning, seen in the browser bench).
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSessions } from '../../../src/index.js';
import { readKeptIndex } from '../../../src/store/file/search/search-index-cache.js';
import { tmpHome } from '../../helpers/tmp-home.js';

/** How many of this process's file descriptors are open on `path`. */
function openOn(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;
}

describe('the kept search index', () => {
  it('is opened once when two searches read it at the same moment', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: home });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'zanzibar' });
    await s.close();
    expect((await sessions.search('zanzibar')).results).toHaveLength(1);
    const [project] = readdirSync(join(home, 'projects'));
    const path = join(home, 'projects', project!, 'search.idx');
    const before = openOn(path);
    const reads = await Promise.all([readKeptIndex(path), readKeptIndex(path), readKeptIndex(path)]);
    expect(reads.map((r) => r.kind)).toEqual(['ok', 'ok', 'ok']);
    expect(openOn(path)).toBe(Math.max(before, 1));
  });
});
