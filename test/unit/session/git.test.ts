import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGitContext } from '../../../src/git/read-git.js';
import { tmpHome } from '../../helpers/tmp-home.js';

const SHA = 'a'.repeat(40);

/** A `.git` directory written by hand: HEAD plus the given files. */
function fakeRepo(head: string, files: Record<string, string> = {}): string {
  const root = tmpHome('chatkeep-git-');
  mkdirSync(join(root, '.git', 'refs', 'heads'), { recursive: true });
  writeFileSync(join(root, '.git', 'HEAD'), `${head}\n`);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, '.git', path), text);
  return root;
}

describe('readGitContext', () => {
  it('a branch with no commit yet has no HEAD commit', async () => {
    const root = fakeRepo('ref: refs/heads/main');
    expect(await readGitContext(root)).toEqual({ root, branch: 'main', head: null });
  });

  it('resolves a loose ref before packed-refs, and packed-refs when there is no loose ref', async () => {
    const packed = `# pack-refs with: peeled fully-peeled sorted\n${'b'.repeat(40)} refs/heads/main\n^${'c'.repeat(40)}\n`;
    const loose = fakeRepo('ref: refs/heads/main', { 'refs/heads/main': `${SHA}\n`, 'packed-refs': packed });
    expect((await readGitContext(loose))?.head).toBe(SHA);
    const onlyPacked = fakeRepo('ref: refs/heads/main', { 'packed-refs': packed });
    expect((await readGitContext(onlyPacked))?.head).toBe('b'.repeat(40));
  });

  it('a detached HEAD has a commit and no branch', async () => {
    const root = fakeRepo(SHA);
    expect(await readGitContext(root)).toEqual({ root, branch: null, head: SHA });
  });

  it('nothing outside a work tree, and nothing from a .git file that points nowhere', async () => {
    expect(await readGitContext(tmpHome('chatkeep-plain-'))).toBeUndefined();
    const broken = tmpHome('chatkeep-broken-');
    writeFileSync(join(broken, '.git'), 'not a gitdir line\n');
    expect(await readGitContext(broken)).toBeUndefined();
    const dangling = tmpHome('chatkeep-dangling-');
    writeFileSync(join(dangling, '.git'), 'gitdir: ../nowhere\n');
    expect(await readGitContext(dangling)).toBeUndefined();
  });
});
