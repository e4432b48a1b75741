/**
 * Session IDs that try to leave the data directory, through every door: `--session-id`,
 * `sessions show`, `/load` and the library. Each must be refused in one line (exit 2 from the
 * command line) with nothing written anywhere.
 */
import { join } from 'node:path';
import { openSessions } from '../src/index.js';
import type { Tally } from './part.js';
import { freshDir, runPiped } from './proc.js';
import { treeDiff, treeOf } from './tree.js';

/** IDs that must never become paths. NUL cannot be passed in argv, so it goes through /load and the library only. */
export const HOSTILE_IDS: readonly string[] = [
  '../x',
  '../../../../../../tmp/escaped',
  '..',
  '.',
  '/etc/passwd',
  '%2e%2e',
  '%2e%2e%2fescaped',
  '..%2f..%2fescaped',
  'session-1/../../escaped',
  'a\\..\\..\\escaped',
  '~/.ssh/id_rsa',
  '-rf',
  ' session-1',
  'x'.repeat(129),
  'y'.repeat(100_000),
  '\u2024\u2024\u2215escaped',
  '\uff0e\uff0e\uff0fescaped',
  'session\u202e..\u2215x',
  'sessi\u043en-1',
  'session-1\u200b',
  'C:\\Windows\\System32',
  'session-1\nsession-2',
  '\t',
];

const WITH_NUL: readonly string[] = ['session-1\u0000../../escaped', '\u0000'];

/** Tries every hostile ID through every door; counts wrong exits, multi-line errors and writes. */
export async function hostileIds(root: string, tally: Tally, tried: readonly string[] = HOSTILE_IDS): Promise<void> {
  const home = freshDir(root, 'ids-home-');
  const cwd = freshDir(root, 'ids-project-');
  const manager = await openSessions({ home, cwd });
  const session = await manager.create();
  await session.append({ role: 'user', content: 'kept: a session exists once it holds a message' });
  await session.save();
  await session.close();
  const everything = (): Map<string, string> => treeOf(root);

  for (const id of tried) {
    for (const args of [['--session-id', id], ['sessions', 'show', id], ['sessions', 'show', id, '--json']]) {
      tally.add('hostileIdsTried');
      const before = everything();
      const result = await runPiped(args, 'hello\n/quit\n', { home, cwd });
      const where = `${args[0]} ${JSON.stringify(id.slice(0, 40))}`;
      if (result.code !== 2) tally.fail('wrongExitCodes', `${where}: exit ${result.code}: ${result.stderr.slice(0, 300)}`);
      if (result.stderr.trim().split('\n').length !== 1 || result.stderr.length > 400) tally.fail('notOneLine', `${where}: ${result.stderr.slice(0, 300)}`);
      if (result.stdout !== '') tally.fail('notOneLine', `${where}: stdout ${result.stdout.slice(0, 200)}`);
      const diff = treeDiff(before, everything());
      if (diff.length > 0) tally.fail('writesOutsideHome', `${where}: ${diff.slice(0, 5).join(', ')}`);
    }
  }

  // /load inside a running REPL: one line each, the REPL carries on, and nothing is written
  // outside the data home; inside it, only this session's files and the project's index change.
  const outsideHome = (): Map<string, string> => treeOf(root, (path) => path.startsWith(home));
  const allowed = (path: string): boolean =>
    path.startsWith(join('projects', manager.project.key, 'sessions', session.id)) || /(^|\/)(\.?index\.json[^/]*|lock[^/]*)$/.test(path);
  const before = outsideHome();
  const homeBefore = treeOf(home);
  const ids = [...HOSTILE_IDS, ...WITH_NUL].filter((id) => id.trim() !== '');
  const lines = ids.map((id) => `/load ${id.replace(/\n/g, ' ')}`);
  const result = await runPiped(['--session-id', session.id, '--autosave', 'off'], `${lines.join('\n')}\nstill here\n/quit\n`, { home, cwd });
  tally.add('hostileIdsTried', lines.length);
  if (result.code !== 0 || !result.stdout.includes('Echo: still here')) tally.fail('wrongExitCodes', `/load: exit ${result.code}: ${result.stderr.slice(-300)}`);
  const refusals = result.stderr.split('\n').filter((l) => /Invalid session ID|No session/.test(l));
  if (refusals.length !== lines.length) tally.fail('notOneLine', `/load: ${refusals.length} one-line refusals for ${lines.length} IDs: ${result.stderr.slice(0, 600)}`);
  const diff = [...treeDiff(before, outsideHome()), ...treeDiff(homeBefore, treeOf(home)).filter((d) => !allowed(d.replace(/^\w+ /, '')))];
  if (diff.length > 0) tally.fail('writesOutsideHome', `/load: ${diff.slice(0, 5).join(', ')}`);

  // The library refuses them too, before building any path.
  for (const id of [...HOSTILE_IDS, ...WITH_NUL]) {
    for (const call of [() => manager.resume(id), () => manager.read(id), () => manager.resolve(id)]) {
      tally.add('hostileIdsTried');
      const snap = everything();
      const outcome = await call().then(
        () => 'accepted',
        (err: { code?: string }) => err.code ?? String(err),
      );
      if (outcome !== 'E_INVALID_ID' && outcome !== 'E_UNKNOWN_SESSION') tally.fail('wrongExitCodes', `library ${JSON.stringify(id.slice(0, 40))}: ${outcome}`);
      const diff2 = treeDiff(snap, everything());
      if (diff2.length > 0) tally.fail('writesOutsideHome', `library ${JSON.stringify(id.slice(0, 40))}: ${diff2.slice(0, 5).join(', ')}`);
    }
  }
}
