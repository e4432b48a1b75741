import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { keyOf, projectOf } from '../../../src/store/postgres/project-key.js';
import { originFromConfig, remoteKey } from '../../../src/store/postgres/remote-key.js';

describe('remoteKey: one repository, one project key, however it was cloned', () => {
  it.each([
    'git@github.com:a/b.git',
    'git@github.com:a/b',
    'https://github.com/a/b',
    'https://github.com/a/b.git',
    'https://github.com/a/b/',
    'https://user:token@github.com/a/b.git',
    'ssh://git@github.com/a/b.git',
    'ssh://git@github.com:22/a/b.git',
    'ssh://git@github.com:a/b.git',
    'git://github.com/a/b.git',
    'HTTPS://GitHub.com/a/b.git',
    'github.com:a/b.git',
  ])('%s → github.com/a/b', (url) => {
    expect(remoteKey(url)).toBe('github.com/a/b');
  });

  it('keeps nested groups and the repository name’s case', () => {
    expect(remoteKey('git@gitlab.example.org:group/sub/Repo.git')).toBe('gitlab.example.org/group/sub/Repo');
    expect(remoteKey('https://gitlab.example.org:8443/group/sub/Repo')).toBe('gitlab.example.org/group/sub/Repo');
  });

  it.each(['/srv/git/repo.git', './repo', '../repo.git', 'file:///srv/git/repo.git', 'C:/repos/x', '', 'https://host.example/'])(
    'a local path or a remote without a repository (%s) has no key',
    (url) => {
      expect(remoteKey(url)).toBeUndefined();
    },
  );
});

describe('originFromConfig', () => {
  it('reads the url of [remote "origin"] only, with quotes and comments', () => {
    const text = [
      '[core]',
      '\turl = not-this',
      '[remote "upstream"]',
      '\turl = git@github.com:up/stream.git',
      '[Remote "origin"]',
      '\tfetch = +refs/heads/*:refs/remotes/origin/*',
      '\tURL = "git@github.com:a/b.git" ; the fork',
    ].join('\n');
    expect(originFromConfig(text)).toBe('git@github.com:a/b.git');
    expect(originFromConfig('[remote "Origin"]\n\turl = x:y/z')).toBeUndefined();
  });
});

describe('projectOf', () => {
  async function tmp(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'chatkeep-project-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  it('is the normalized origin remote in a git work tree that has one, from any folder below it', async () => {
    const repo = await tmp();
    await mkdir(join(repo, '.git'));
    await mkdir(join(repo, 'src', 'deep'), { recursive: true });
    await writeFile(join(repo, '.git', 'config'), '[remote "origin"]\n\turl = https://github.com/a/b.git\n');
    const project = await projectOf(join(repo, 'src', 'deep'));
    expect(keyOf(project)).toBe('github.com/a/b');
    expect(project.path).toBe(join(repo, 'src', 'deep'));
  });

  it('is host:real path without a git remote', async () => {
    const dir = await tmp();
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, '.git', 'config'), '[core]\n\tbare = false\n');
    expect(keyOf(await projectOf(dir))).toBe(`${hostname()}:${dir}`);
    expect(keyOf(await projectOf(dir, 'laptop'))).toBe(`laptop:${dir}`);
  });
});
