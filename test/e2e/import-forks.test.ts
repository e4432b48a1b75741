/**
 * Lineage kept by `sessions import --from`: a fork made in the other tool becomes a fork here,
 * on the files the real tools wrote (test/fixtures/peer-forks, made by
 * scripts/make-fork-fixtures.mjs: a conversation of two turns, a fork of it with one turn of its
 * own, then one more turn of the original). Codex CLI forks with `codex exec fork` (its file
 * holds only its own turns), Claude Code with `claude -p --resume ID --fork-session` (its file
 * begins with copies of the original's lines).
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const WORK = '/tmp/chatkeep-peers/work';

interface Fixture {
  tool: 'codex' | 'claude' | 'gemini';
  dir: string;
  /** The tool's folder in the fixture, given to the import as a whole. */
  store: string;
  /** chatkeep's IDs of the two, and the file each is read from. */
  parent: string;
  fork: string;
  parentFile: string;
  forkFile: string;
  files: string[];
  /** Messages in the fork (a Gemini CLI checkpoint has none of its own). */
  forkMessages: number;
}

function fixture(tool: Fixture['tool'], version: string, store: string): Fixture {
  const dir = join(import.meta.dirname, '../fixtures/peer-forks', `${tool}-${version}`);
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { parent: string; fork: string; files: string[] };
  const fileOf = (id: string): string => m.files.find((file) => file.endsWith(`${id}.jsonl`) || file.endsWith(`${id.slice(0, 8)}.jsonl`) || file.endsWith(`/${id}.json`))!;
  // A checkpoint's ID in Gemini CLI is its tag, within the project's folder (`work`).
  const fork = tool === 'gemini' ? `gemini-work.${m.fork}` : `${tool}-${m.fork}`;
  return {
    tool, dir, store, files: m.files, parent: `${tool}-${m.parent}`, fork,
    parentFile: fileOf(m.parent), forkFile: fileOf(m.fork), forkMessages: tool === 'gemini' ? 4 : 6,
  };
}

const FIXTURES: Fixture[] = [fixture('codex', '0.169.0', '.codex'), fixture('claude', '2.1.330', '.claude'), fixture('gemini', '0.61.0', '.gemini')];

interface Member {
  id: string;
  forkPoint: number | null;
  messageCount: number;
  parentGone?: string;
  children: Member[];
}

function chatkeep(args: string[], options: RunOptions): ReturnType<typeof runPiped> {
  const user = tmpHome('chatkeep-user-');
  return runPiped(args, '', { ...options, env: { HOME: user, CODEX_HOME: join(user, '.codex'), CLAUDE_CONFIG_DIR: join(user, '.claude'), ...options.env } });
}

function family(f: Fixture) {
  const PARENT = f.parent;
  const FORK = f.fork;
  const fileOf = (id: string): string => (id === PARENT ? f.parentFile : f.forkFile);

  /** A fresh chatkeep home, and a copy of the tool's store to import from (`files`: which session files it holds). */
  function setUp(files = f.files): { options: RunOptions; store: string } {
    const store = tmpHome(`chatkeep-${f.tool}-`);
    for (const file of files) cpSync(join(f.dir, file), join(store, file));
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
    const run = await chatkeep(['sessions', 'import', '--from', f.tool, ...paths], options);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  }

  /** The family as the original's tree shows it: the original with the fork under it, at the two turns they share. */
  async function expectFamily(options: RunOptions): Promise<void> {
    const root = await tree(FORK, options);
    expect(root).toMatchObject({ id: PARENT, forkPoint: null, messageCount: 6 });
    expect(root.children).toEqual([expect.objectContaining({ id: FORK, forkPoint: 4, messageCount: f.forkMessages, children: [] })]);
  }

  return { PARENT, FORK, fileOf, setUp, tree, importFrom, expectFamily };
}

describe.each(FIXTURES)('sessions import --from $tool keeps forks', (f) => {
  const { PARENT, FORK, fileOf, setUp, tree, importFrom, expectFamily } = family(f);

  it('imports a conversation and its fork in one run as a family', async () => {
    const { options, store } = setUp();
    await importFrom([join(store, f.store)], options);
    await expectFamily(options);
    // The fork holds the turns it shares, then its own; `sessions show` says where it came from.
    const shown = await chatkeep(['sessions', 'show', FORK, '--json'], options);
    const fork = JSON.parse(shown.stdout) as { parentId: string; forkPoint: number; messages: { role: string; content: string }[] };
    expect(fork).toMatchObject({ parentId: PARENT, forkPoint: 4 });
    expect(fork.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'Remember the word aubergine.',
      'And the word turnip.',
      ...(f.tool === 'gemini' ? [] : ['In this branch, forget the turnip.']),
    ]);
    // The original is no one's fork.
    const original = JSON.parse((await chatkeep(['sessions', 'show', PARENT, '--json'], options)).stdout) as { parentId?: string };
    expect(original.parentId).toBeUndefined();
  });

  it('joins the family whichever file is imported first', async () => {
    for (const order of [[FORK, PARENT], [PARENT, FORK]]) {
      const { options, store } = setUp();
      for (const id of order) await importFrom([join(store, fileOf(id))], options);
      await expectFamily(options);
    }
  });

  it('shows a fork imported alone as a root naming its parent, and the family once the parent comes', async () => {
    const { options, store } = setUp();
    await importFrom([join(store, fileOf(FORK))], options);
    const alone = await tree(FORK, options);
    expect(alone).toMatchObject({ id: FORK, forkPoint: null, parentGone: PARENT, messageCount: f.forkMessages });
    await importFrom([join(store, fileOf(PARENT))], options);
    await expectFamily(options);
  });

  it('keeps the family when the same files are imported again', async () => {
    const { options, store } = setUp();
    await importFrom([join(store, f.store)], options);
    const again = await chatkeep(['sessions', 'import', '--from', f.tool, join(store, f.store), '--json'], options);
    const outcomes = (JSON.parse(again.stdout) as { results: { id: string; action: string }[] }).results;
    expect(outcomes.map((o) => [o.id, o.action]).sort()).toEqual([[FORK, 'unchanged'], [PARENT, 'unchanged']].sort());
    await expectFamily(options);
  });
});

/** Codex CLI's and Claude Code's forks go on in their own files (a Gemini CLI checkpoint does not). */
describe.each(FIXTURES.filter((f) => f.tool !== 'gemini'))('sessions import --from $tool keeps a grown fork', (f) => {
  const { PARENT, FORK, fileOf, setUp, tree, importFrom, expectFamily } = family(f);
  const reply = f.tool === 'codex' ? '"role":"assistant"' : '"type":"assistant"';

  it('keeps the lineage when the fork has grown and is brought up to date', async () => {
    const { options, store } = setUp();
    const forkFile = join(store, fileOf(FORK));
    const whole = readFileSync(forkFile, 'utf8');
    // The fork as it was before the reply to its own turn was written.
    const lines = whole.split('\n');
    writeFileSync(forkFile, `${lines.slice(0, lines.findLastIndex((line) => line.includes(reply))).join('\n')}\n`);
    await importFrom([join(store, f.store)], options);
    expect((await tree(PARENT, options)).children).toEqual([expect.objectContaining({ id: FORK, forkPoint: 4, messageCount: 5 })]);
    writeFileSync(forkFile, whole);
    const again = await chatkeep(['sessions', 'import', '--from', f.tool, join(store, f.store)], options);
    expect(again.stdout).toContain(`Brought ${FORK} up to date`);
    await expectFamily(options);
  });
});

describe('sessions import --from gemini finds checkpoints in Gemini CLI\'s own store', () => {
  const f = FIXTURES.find((x) => x.tool === 'gemini')!;
  const { setUp, expectFamily } = family(f);

  it('imports the chat and its checkpoint from GEMINI_CLI_HOME as a family', async () => {
    const { options, store } = setUp();
    const run = await chatkeep(['sessions', 'import', '--from', 'gemini'], { ...options, env: { GEMINI_CLI_HOME: store } });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`as ${f.fork}: 4 messages`);
    await expectFamily(options);
  });
});
