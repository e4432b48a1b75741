/**
 * Titles and empty sessions (docs/design.md §3) through the real program. A session is named by its first user message
 * at once (redacted, one line, cut by display width), marked automatic; a chosen title replaces
 * it and is never overwritten by one. Sessions of chatkeep 0.1.0 get the same automatic title
 * when listed, their files untouched. A run that stored no message keeps no session: not listed,
 * never picked by `-c`, no resume command printed, and its ID is not issued again.
 */
import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { runPiped, savedChat, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { treeDigest } from '../helpers/tree-digest.js';

interface Row {
  id: string;
  title: string | null;
  titleSource?: string;
  derivedTitle?: string;
  messageCount: number;
}

async function list(where: { home: string; cwd: string }, ...args: string[]): Promise<Row[]> {
  const run = await runPiped(['sessions', 'list', '--json', ...args], '', where);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Row[];
}

const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(4)}`;

describe('automatic titles', () => {
  it('come from the first user message at once: redacted, its first line, cut to 60 columns by display width', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const cjk = '会議の記録をまとめてください'.repeat(6);
    const first = await savedChat(`\n${cjk}\nsecond line\n/quit\n`, where);
    const secret = await savedChat(`deploy with ${TOKEN} please\n/quit\n`, where);
    const rows = await list(where);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const cut = byId.get(first)!.title!;
    expect(byId.get(first)!.titleSource).toBe('auto');
    expect(cut.endsWith('…')).toBe(true);
    expect(cjk.startsWith(cut.slice(0, -1))).toBe(true);
    expect(stringWidth(cut)).toBeLessThanOrEqual(60);
    expect(stringWidth(cut)).toBeGreaterThanOrEqual(58);
    expect(byId.get(secret)).toMatchObject({ title: 'deploy with [REDACTED:github-token] please', titleSource: 'auto' });
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
  });

  it('give way to a chosen title (/title, /save TITLE), which no later message replaces', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const { run, id } = await startAtPrompt([], where);
    await run.say('what is a monad', 'Echo: what is a monad');
    await run.say('/title', 'Title: "what is a monad"');
    await run.say('/title Monads explained', 'Renamed');
    await run.say('another question', 'Echo: another question');
    expect(await run.quit()).toBe(0);
    expect((await list(where)).find((r) => r.id === id)).toMatchObject({ title: 'Monads explained', titleSource: 'user' });

    const saved = await savedChat('first words\n/save Picked by me\nmore words\n/quit\n', where);
    expect((await list(where)).find((r) => r.id === saved)).toMatchObject({ title: 'Picked by me', titleSource: 'user' });
    // Resumed, the chosen title stays whatever is said.
    await runPiped(['--session-id', saved], 'yet more\n/quit\n', where);
    expect((await list(where)).find((r) => r.id === saved)).toMatchObject({ title: 'Picked by me', titleSource: 'user' });
  });

  it('are kept as automatic through export, import and copy', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const id = await savedChat('plan the release\n/quit\n', where);
    const exported = await runPiped(['sessions', 'export', id], '', where);
    expect(JSON.parse(exported.stdout).session).toMatchObject({ title: 'plan the release', titleSource: 'auto' });
    const file = join(where.cwd, 'export.json');
    writeFileSync(file, exported.stdout);
    const other = { home: tmpHome(), cwd: where.cwd };
    expect((await runPiped(['sessions', 'import', file], '', other)).code).toBe(0);
    expect(await list(other)).toMatchObject([{ id, title: 'plan the release', titleSource: 'auto' }]);
    const copied = { home: tmpHome(), cwd: where.cwd };
    expect((await runPiped(['sessions', 'copy', '--to', copied.home, id], '', where)).code).toBe(0);
    expect(await list(copied)).toMatchObject([{ id, title: 'plan the release', titleSource: 'auto' }]);
  });

  it('name sessions of chatkeep 0.1.0 when listed, from their first user message, without touching their files', async () => {
    const home = tmpHome();
    cpSync(fileURLToPath(new URL('../fixtures/release-0.1.0/home', import.meta.url)), home, { recursive: true });
    const where = { home, cwd: tmpHome('chatkeep-project-') };
    // The session files (index.json is a cache a listing may bring up to date).
    const before = treeDigest(join(home, 'projects', '-tmp-fx-proj', 'sessions'));
    const rows = await list(where, '--all');
    // `title` stays as stored (null), as 0.1.0 printed it; the automatic title comes beside it.
    expect(rows.map((r) => [r.title, r.derivedTitle ?? null])).toEqual([
      [null, 'a slow reply please'],
      [null, 'journal only'],
      [null, 'one'],
      ['First chat', null],
    ]);
    const table = await runPiped(['sessions', 'list', '--all'], '', where);
    expect(table.stdout).toMatch(/ interrupted {2}a slow reply please {2}\[\/tmp\/fx\/proj\]\n/);
    expect(table.stdout).toMatch(/ closed {7}First chat {2}\[\/tmp\/fx\/proj\]\n$/);
    expect(treeDigest(join(home, 'projects', '-tmp-fx-proj', 'sessions'))).toEqual(before);
  });
});

describe('no empty sessions', () => {
  it('a run that stored no message keeps none: no resume command, not listed, -c takes the last real conversation', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const real = await savedChat('a real conversation\n/quit\n', where);
    const empty = await runPiped([], '/help\n/sessions\n/quit\n', where);
    expect(empty.code).toBe(0);
    const id = /session (session-\S+) ·/.exec(empty.stderr)![1]!;
    expect(empty.stderr).toContain(`Nothing was kept: no message was sent in ${id}.\n`);
    expect(empty.stderr).not.toContain('Saved');
    expect(empty.stderr).not.toContain('--session-id');
    expect((await list(where)).map((r) => r.id)).toEqual([real]);
    expect((await list(where, '--all', '--empty')).map((r) => r.id)).toEqual([real]);
    const sessionsDir = join(where.home, 'projects', readdirSync(join(where.home, 'projects'))[0]!, 'sessions');
    expect(readdirSync(sessionsDir)).toEqual([real]);
    // Its ID stays issued: asking for it says it is unknown, and it is never handed out again.
    expect(readdirSync(join(where.home, 'ids'))).toContain(id);
    const gone = await runPiped(['--session-id', id], '', where);
    expect(gone.code).toBe(2);

    const cont = await runPiped(['-c'], 'and more\n/quit\n', where);
    expect(cont.code, cont.stderr).toBe(0);
    expect(cont.stderr).toContain(`Resumed session ${real}`);
    expect(cont.stderr).toContain(`Saved ${real} (4 messages).`);
  });

  it('/save on an empty session says nothing is saved yet, and keeps the title for when a message comes', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const run = await runPiped([], '/save\n/save Named early\nhello\n/quit\n', where);
    expect(run.stdout).toContain('Nothing is saved yet: a session is kept once it holds a message.\n');
    expect(run.stdout).toContain('Titled as "Named early"; nothing is saved yet: a session is kept once it holds a message.\n');
    expect(run.stderr).toMatch(/Saved session-\S+ \(2 messages\)\./);
    expect(await list(where)).toMatchObject([{ title: 'Named early', titleSource: 'user', messageCount: 2 }]);
  });
});
