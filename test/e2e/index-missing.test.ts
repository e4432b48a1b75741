import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { openSessions } from '../../src/index.js';
import { layout } from '../../src/store/file/layout.js';

describe('index.json missing (an upgrade, a copied or restored data directory)', () => {
  it('starting or resuming a chat does not rebuild it; the first listing does, from every session', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const sessions = await openSessions({ home, cwd });
    const ids: string[] = [];
    for (const title of ['first', 'second']) {
      const s = await sessions.create({ title });
      await s.append({ role: 'user', content: title });
      await s.close();
      ids.push(s.id);
    }
    await sessions.list(); // the index exists, then goes
    const index = join(layout.project(sessions.store.location, sessions.project.key), 'index.json');
    rmSync(index);

    const fresh = await runPiped([], 'hi\n', { home, cwd });
    expect(fresh.code).toBe(0);
    const resumed = await runPiped(['--session-id', ids[0]!], 'again\n', { home, cwd });
    expect(resumed.code).toBe(0);
    expect(existsSync(index)).toBe(false);

    const listed = await runPiped(['sessions', 'list', '--json'], '', { home, cwd });
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as { id: string; title: string | null; messageCount: number }[];
    expect(rows.map((r) => [r.title, r.messageCount])).toEqual([
      ['first', 3],
      ['hi', 2],
      ['second', 1],
    ]);
    expect(existsSync(index)).toBe(true);
  });
});
