import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { InvalidIdError, isValidId, openSessions } from '../../../src/index.js';
import { baseIdFor } from '../../../src/session/api/ids.js';
import { allFiles } from '../../helpers/files.js';
import { layout } from '../../../src/store/file/layout.js';

const BAD_IDS = ['../x', 'a/b', '', 'x'.repeat(200), 'abc\u0000def', '.hidden', '-dash', '..'];

describe('session IDs', () => {
  const originalTz = process.env.TZ;
  afterEach(() => {
    process.env.TZ = originalTz;
  });

  it('accepts the documented pattern and refuses everything else', () => {
    expect(isValidId('session-20261122-143022')).toBe(true);
    expect(isValidId('session-20261122-143022-2')).toBe(true);
    expect(isValidId('a'.repeat(128))).toBe(true);
    expect(isValidId('a'.repeat(129))).toBe(false);
    for (const id of BAD_IDS) expect(isValidId(id), JSON.stringify(id)).toBe(false);
  });

  it('formats the UTC clock even in a zone with DST (America/New_York)', async () => {
    process.env.TZ = 'America/New_York';
    // 02:30 UTC on the day New York skips 02:00–03:00 local, and the repeated hour in November.
    for (const iso of ['2026-03-08T02:30:00.000Z', '2026-03-08T07:30:05.000Z', '2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z', '2026-12-31T23:59:59.000Z']) {
      const d = new Date(iso);
      const expected = `session-${d.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}`;
      expect(baseIdFor(d)).toBe(expected);
    }
  });

  it('gives two sessions created in the same second distinct IDs, and never reissues one', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const at = new Date('2026-11-22T14:30:22.000Z');
    const sessions = await openSessions({ home, cwd, now: () => at });
    const a = await sessions.create();
    const b = await sessions.create();
    const c = await sessions.create();
    expect([a.id, b.id, c.id]).toEqual(['session-20261122-143022', 'session-20261122-143022-2', 'session-20261122-143022-3']);
    // Each holds a message, so each is kept (an empty one keeps only its ID).
    for (const s of [a, b, c]) await s.append({ role: 'user', content: `in ${s.id}` });
    await Promise.all([a.close(), b.close(), c.close()]);

    // A session moved to trash keeps its ID: the next one in that second does not reuse it.
    const trash = join(home, 'trash');
    mkdirSync(trash, { recursive: true });
    renameSync(c.where.files!.dir, join(trash, c.id));
    const d = await sessions.create();
    expect(d.id).toBe('session-20261122-143022-4');
    await d.close();

    // Another project in the same second gets yet another ID (IDs are unique across projects).
    const other = await openSessions({ home, cwd: tmpHome(), now: () => at });
    const e = await other.create();
    expect(e.id).toBe('session-20261122-143022-5');
    await e.close();
  });

  it('refuses bad IDs from outside before building any path', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const sessions = await openSessions({ home, cwd });
    // Targets a traversal would reach if the ID were joined into a path.
    const project = layout.project(sessions.store.location, sessions.project.key);
    mkdirSync(join(project, 'x'), { recursive: true });
    writeFileSync(join(project, 'x', 'session.json'), '{}');
    const before = allFiles(home).sort();
    for (const id of BAD_IDS) {
      await expect(sessions.resume(id), JSON.stringify(id)).rejects.toBeInstanceOf(InvalidIdError);
      await expect(sessions.read(id)).rejects.toBeInstanceOf(InvalidIdError);
      await expect(sessions.resolve(id)).rejects.toBeInstanceOf(InvalidIdError);
      await expect(sessions.holder(id)).rejects.toBeInstanceOf(InvalidIdError);
    }
    expect(allFiles(home).sort()).toEqual(before);
    const err = (await sessions.resume('abc\u0000def').catch((e: unknown) => e)) as Error;
    expect(err.message).toBe(
      "Invalid session ID `abc\\u0000def`: IDs are 1–128 letters, digits, '.', '_' or '-', starting with a letter or digit.",
    );
    expect(err.message).not.toContain('\u0000');
    expect(existsSync(join(project, 'sessions'))).toBe(false);
  });
});
