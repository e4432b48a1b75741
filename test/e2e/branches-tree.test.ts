/**
 * A conversation's family as people and scripts see it: `chatkeep sessions tree ID [--json]`
 * piped, and `/tree` in a chat at 80 and 120 columns; trashed members and lost parents; on
 * the file store and on PostgreSQL.
 */
import { describe, expect, inject, it } from 'vitest';
import { runPiped, savedChat, startAtPrompt, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { createDatabase } from '../helpers/postgres.js';

interface Member {
  id: string;
  title: string | null;
  forkPoint: number | null;
  messageCount: number;
  updatedAt: string;
  asked?: true;
  trashed?: true;
  parentGone?: string;
  children: Member[];
}

const AGE = '(now|\\d+m ago)';

/** A family of four: root (4 messages) ← a (at 2) ← b (at 4), and root ← long (at 4, a long title). */
async function family(options: RunOptions): Promise<{ root: string; a: string; b: string; long: string }> {
  const root = await savedChat('one\ntwo\n/quit\n', options);
  const a = await savedChat('three\n/title side quest\n/quit\n', options, ['--fork', root, '--at', '2']);
  const b = await savedChat('four\n/title deeper\n/quit\n', options, ['--fork', a]);
  const long = await savedChat(`five\n/title ${'a long title that goes on '.repeat(2).trim()}\n/quit\n`, options, ['--fork', root]);
  return { root, a, b, long };
}

async function run(options: RunOptions, args: string[]): Promise<string> {
  const result = await runPiped(args, '', options);
  // rm and empty-trash say what they did on stderr; the tree says nothing there.
  if (args[1] === 'tree') expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

async function treeOfFour(options: RunOptions): Promise<void> {
  const { root, a, b, long } = await family(options);
  const lines = (await run(options, ['sessions', 'tree', a])).split('\n');
  expect(lines.pop()).toBe('');
  expect(lines).toHaveLength(4);
  expect(lines[0]).toMatch(new RegExp(`^${root}  4 messages · ${AGE}  one$`));
  expect(lines[1]).toMatch(new RegExp(`^├─ ${a}  at 2 · 4 messages · ${AGE} ◀  side quest$`));
  expect(lines[2]).toMatch(new RegExp(`^│  └─ ${b}  at 4 · 6 messages · ${AGE}  deeper$`));
  expect(lines[3]).toMatch(new RegExp(`^└─ ${long}  at 4 · 6 messages · ${AGE}  a long title.*…$`));
  // Piped, the tree is drawn within 80 columns: the long title is cut, not wrapped.
  for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);

  const json = JSON.parse(await run(options, ['sessions', 'tree', b, '--json'])) as { root: Member };
  expect(json.root).toMatchObject({ id: root, title: 'one', forkPoint: null, messageCount: 4 });
  expect(json.root).not.toHaveProperty('asked');
  expect(json.root.children.map((c) => [c.id, c.forkPoint, c.messageCount])).toEqual([
    [a, 2, 4],
    [long, 4, 6],
  ]);
  expect(json.root.children[0]!.children).toEqual([
    { id: b, title: 'deeper', forkPoint: 4, messageCount: 6, updatedAt: expect.stringMatching(/^\d{4}-.*Z$/), asked: true, children: [] },
  ]);

  // A trashed member is still in the family, said to be in the trash; its forks hang from it.
  await run(options, ['sessions', 'rm', a]);
  const trashed = JSON.parse(await run(options, ['sessions', 'tree', b, '--json'])) as { root: Member };
  expect(trashed.root.id).toBe(root);
  expect(trashed.root.children[0]).toMatchObject({ id: a, forkPoint: 2, trashed: true, children: [{ id: b, asked: true }] });
  // Within 80 columns the title gives way (an ID made in the same second as another is longer),
  // never the note that it is in the trash.
  const withTrashed = await run(options, ['sessions', 'tree', root]);
  expect(withTrashed).toMatch(new RegExp(`\n├─ ${a}  at 2 · 4 messages · ${AGE}  side( quest| ?\\S*…)  \\(in the trash\\)\n`));
  for (const line of withTrashed.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);

  // Deleted for good, it leaves its fork a root of its own, with a note saying where it came from.
  await run(options, ['sessions', 'empty-trash', '--yes']);
  const orphan = JSON.parse(await run(options, ['sessions', 'tree', b, '--json'])) as { root: Member };
  expect(orphan.root).toEqual({ id: b, title: 'deeper', forkPoint: null, messageCount: 6, updatedAt: expect.any(String), asked: true, parentGone: a, children: [] });
  expect(await run(options, ['sessions', 'tree', b])).toMatch(new RegExp(`^${b}  6 messages · ${AGE} ◀  deeper\n   \\(forked from ${a}, which is gone\\)\n$`));
  expect((JSON.parse(await run(options, ['sessions', 'tree', root, '--json'])) as { root: Member }).root.children.map((c) => c.id)).toEqual([long]);
}

describe('chatkeep sessions tree ID', () => {
  it('draws the whole family from its root, the asked one marked; a trashed member said so; a lost parent noted', async () => {
    await treeOfFour({ home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
  });

  it('does the same on PostgreSQL', async () => {
    const url = await createDatabase(inject('postgresAdminUrl'));
    await treeOfFour({ home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env: { CHATKEEP_STORE: url } });
  });

  it('refuses an unknown ID in one line (exit 2)', async () => {
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    await savedChat('one\n/quit\n', options);
    expect(await runPiped(['sessions', 'tree', 'session-19990101-000000'], '', options)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'chatkeep: No session `session-19990101-000000`. List sessions with: chatkeep sessions list --all\n',
    });
  });
});

describe('a family carried to another store', () => {
  it('keeps its lineage through export and import, and through sessions copy', async () => {
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const { root, a, b, long } = await family(options);
    const elsewhere = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    for (const id of [b, root, long, a]) {
      const exported = await runPiped(['sessions', 'export', id], '', options);
      expect((await runPiped(['sessions', 'import', '-'], exported.stdout, elsewhere)).code).toBe(0);
    }
    const shape = (m: Member): unknown => [m.id, m.forkPoint, m.children.map(shape)];
    const original = shape((JSON.parse(await run(options, ['sessions', 'tree', b, '--json'])) as { root: Member }).root);
    expect(original).toEqual([root, null, [[a, 2, [[b, 4, []]]], [long, 4, []]]]);
    expect(shape((JSON.parse(await run(elsewhere, ['sessions', 'tree', b, '--json'])) as { root: Member }).root)).toEqual(original);

    const copied = tmpHome();
    expect((await runPiped(['sessions', 'copy', '--to', copied, '--all'], '', options)).code).toBe(0);
    expect(shape((JSON.parse(await run({ ...options, home: copied }, ['sessions', 'tree', b, '--json'])) as { root: Member }).root)).toEqual(original);
  });
});

describe('/tree in the chat', () => {
  for (const columns of [80, 120]) {
    it(`shows this session's family within ${columns} columns, this one marked`, async () => {
      const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), columns };
      const { root, a, long } = await family(options);
      const { run: chat, id } = await startAtPrompt(['--fork', a, '--at', '2'], options);
      await chat.say('again', 'Echo: again');
      const from = (await chat.visible()).length;
      await chat.say('/tree', new RegExp(`${id}.*◀`));
      await chat.prompt();
      const shown = (await chat.visible()).slice(from);
      const at = shown.findIndex((l) => l.startsWith(root));
      expect(shown.slice(at, at + 5).map((l) => l.replace(/ · (now|\d+m ago)/, ' · AGE'))).toEqual([
        expect.stringMatching(new RegExp(`^${root}  4 messages · AGE  one$`)),
        expect.stringMatching(new RegExp(`^├─ ${a}  at 2 · 4 messages · AGE  side quest$`)),
        expect.stringMatching(new RegExp(`^│  ├─ [^ ]+  at 4 · 6 messages · AGE  deeper$`)),
        // The live fork counts what it holds now, before any save.
        `│  └─ ${id}  at 2 · 4 messages · AGE ◀  side quest`,
        // Where the cut falls depends on the IDs' lengths (one made in the same second as another
        // ends in -2): the line below says whether it was cut.
        expect.stringMatching(new RegExp(`^└─ ${long}  at 4 · 6 messages · AGE  a long title`)),
      ]);
      // No line of the tree wraps: the long title is cut to the screen (whole at 120 columns, cut at 80).
      expect((await chat.wrapped()).filter((i) => i > from + at && i <= from + at + 5)).toEqual([]);
      expect(shown[at + 4]!.endsWith('…')).toBe(columns === 80);
      expect(await chat.quit()).toBe(0);
    });
  }
});
