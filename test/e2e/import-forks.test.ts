/**
 * Lineage kept by `sessions import --from`: a fork made in the other tool becomes a fork here,
 * on the files the real tool wrote (test/fixtures/peer-forks, made by
 * scripts/make-fork-fixtures.mjs: a Codex CLI conversation of two turns, `codex exec fork` of
 * it with one turn of its own, then one more turn of the original).
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const DIR = join(import.meta.dirname, '../fixtures/peer-forks/codex-0.169.0');
const WORK = '/tmp/chatkeep-peers/work';
const MANIFEST = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { parent: string; fork: string; files: string[] };
const PARENT = `codex-${MANIFEST.parent}`;
const FORK = `codex-${MANIFEST.fork}`;
const fileOf = (id: string): string => MANIFEST.files.find((f) => f.endsWith(`-${id}.jsonl`))!;

interface Member {
  id: string;
  forkPoint: number | null;
  messageCount: number;
  parentGone?: string;
  children: Member[];
}

function chatkeep(args: string[], options: RunOptions): ReturnType<typeof runPiped> {
  const user = tmpHome('chatkeep-user-');
  return runPiped(args, '', { ...options, env: { HOME: user, CODEX_HOME: join(user, '.codex'), ...options.env } });
}

/** A fresh chatkeep home, and a copy of the Codex store to import from (`files`: which rollouts it holds). */
function setUp(files = MANIFEST.files): { options: RunOptions; store: string } {
  const store = tmpHome('chatkeep-codex-');
  for (const f of files) cpSync(join(DIR, f), join(store, f));
  mkdirSync(WORK, { recursive: true });
  return { options: { home: tmpHome(), cwd: WORK }, store };
}

async function tree(id: string, options: RunOptions): Promise<Member> {
  const run = await chatkeep(['sessions', 'tree', id, '--json'], options);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { root: Member }).root;
}

async function importFrom(paths: string[], options: RunOptions): Promise<void> {
  const run = await chatkeep(['sessions', 'import', '--from', 'codex', ...paths], options);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
}

/** The family as the original's tree shows it: the original with the fork under it, at the two turns they share. */
async function expectFamily(options: RunOptions): Promise<void> {
  const root = await tree(FORK, options);
  expect(root).toMatchObject({ id: PARENT, forkPoint: null, messageCount: 6 });
  expect(root.children).toEqual([expect.objectContaining({ id: FORK, forkPoint: 4, messageCount: 6, children: [] })]);
}

describe('sessions import --from codex keeps forks', () => {
  it('imports a conversation and its fork in one run as a family', async () => {
    const { options, store } = setUp();
    await importFrom([join(store, '.codex')], options);
    await expectFamily(options);
    // The fork holds the turns it shares, then its own; `sessions show` says where it came from.
    const shown = await chatkeep(['sessions', 'show', FORK, '--json'], options);
    const fork = JSON.parse(shown.stdout) as { parentId: string; forkPoint: number; messages: { role: string; content: string }[] };
    expect(fork).toMatchObject({ parentId: PARENT, forkPoint: 4 });
    expect(fork.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'Remember the word aubergine.',
      'And the word turnip.',
      'In this branch, forget the turnip.',
    ]);
  });

  it('joins the family whichever file is imported first', async () => {
    for (const order of [[MANIFEST.fork, MANIFEST.parent], [MANIFEST.parent, MANIFEST.fork]]) {
      const { options, store } = setUp();
      for (const id of order) await importFrom([join(store, fileOf(id))], options);
      await expectFamily(options);
    }
  });

  it('shows a fork imported alone as a root naming its parent, and the family once the parent comes', async () => {
    const { options, store } = setUp();
    await importFrom([join(store, fileOf(MANIFEST.fork))], options);
    const alone = await tree(FORK, options);
    expect(alone).toMatchObject({ id: FORK, forkPoint: null, parentGone: PARENT, messageCount: 6 });
    await importFrom([join(store, fileOf(MANIFEST.parent))], options);
    await expectFamily(options);
  });

  it('keeps the lineage when the fork has grown and is brought up to date', async () => {
    const { options, store } = setUp();
    const forkFile = join(store, fileOf(MANIFEST.fork));
    const whole = readFileSync(forkFile, 'utf8');
    // The fork as it was before the reply to its own turn was written.
    const lines = whole.split('\n');
    writeFileSync(forkFile, `${lines.slice(0, lines.findIndex((l) => l.includes('"role":"assistant"'))).join('\n')}\n`);
    await importFrom([join(store, '.codex')], options);
    expect((await tree(PARENT, options)).children).toEqual([expect.objectContaining({ id: FORK, forkPoint: 4, messageCount: 5 })]);
    writeFileSync(forkFile, whole);
    const again = await chatkeep(['sessions', 'import', '--from', 'codex', join(store, '.codex')], options);
    expect(again.stdout).toContain(`Brought ${FORK} up to date`);
    await expectFamily(options);
  });
});
