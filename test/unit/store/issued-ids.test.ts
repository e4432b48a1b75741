import * as fs from 'node:fs';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { issueId } from '../../../src/store/file/ids.js';
import { tmpHome } from '../../helpers/tmp-home.js';

// linkSync, wrapped so a test can make the file system refuse a link as one would.
vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  return { ...real, linkSync: vi.fn(real.linkSync) };
});
const realLink = (await vi.importActual<typeof import('node:fs')>('node:fs')).linkSync;
const linkSync = vi.mocked(fs.linkSync);

afterEach(() => {
  linkSync.mockImplementation(realLink);
});

function idsDir(): string {
  const dir = join(tmpHome(), 'ids');
  mkdirSync(dir);
  return dir;
}

describe('ids/: the IDs ever issued', () => {
  it('records each ID once, as a hard link to one empty file', () => {
    const dir = idsDir();
    expect(issueId(dir, '20261125-130000')).toBe(true);
    expect(issueId(dir, '20261125-130001')).toBe(true);
    expect(issueId(dir, '20261125-130000')).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['.issued', '20261125-130000', '20261125-130001']);
    const entry = statSync(join(dir, '20261125-130000'));
    expect(entry.isFile()).toBe(true);
    expect(entry.size).toBe(0);
    expect(entry.ino).toBe(statSync(join(dir, '.issued')).ino);
    expect(entry.nlink).toBe(3);
  });

  it('makes the shared file again when it was removed, keeping the IDs recorded', () => {
    const dir = idsDir();
    issueId(dir, 'one');
    rmSync(join(dir, '.issued'));
    expect(issueId(dir, 'two')).toBe(true);
    expect(issueId(dir, 'one')).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['.issued', 'one', 'two']);
  });

  it('goes on to a second shared file when the first has as many links as the file system allows', () => {
    const dir = idsDir();
    issueId(dir, 'before');
    linkSync.mockImplementation((from, to) => {
      if (String(from).endsWith('/.issued')) throw Object.assign(new Error('EMLINK: too many links'), { code: 'EMLINK' });
      realLink(from, to);
    });
    expect(issueId(dir, 'after')).toBe(true);
    expect(issueId(dir, 'before')).toBe(false);
    expect(statSync(join(dir, 'after')).ino).toBe(statSync(join(dir, '.issued-2')).ino);
  });

  it('makes an empty file of its own for each ID where the file system has no hard links', () => {
    const dir = idsDir();
    linkSync.mockImplementation(() => {
      throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
    });
    expect(issueId(dir, 'a')).toBe(true);
    expect(issueId(dir, 'a')).toBe(false);
    expect(statSync(join(dir, 'a')).nlink).toBe(1);
  });

  it('throws where there is no ids/ directory, making nothing', () => {
    const home = tmpHome();
    expect(() => issueId(join(home, 'ids'), 'a')).toThrow(/ENOENT/);
    expect(readdirSync(home)).toEqual([]);
  });
});
