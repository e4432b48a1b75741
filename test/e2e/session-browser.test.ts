/**
 * The session browser (docs/design.md §14), driven as a person does: the real program in a
 * pseudo-terminal, what the terminal shows read back from a terminal emulator.
 */
import { join } from 'node:path';
import { statSync } from 'node:fs';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { idAt, manySessions, openProject } from '../../bench/fixtures.js';
import { runPiped, searchAnswered, spawnPty, startAtPrompt, type PtyRun } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { treeDigest } from '../helpers/tree-digest.js';
import { ageSessionDirs, sessionDir } from '../helpers/session-files.js';

/** A word planted in one old session only. */
const RARE = 'wombat';
/** Sessions made; the one holding RARE is the 57th most recent. */
const COUNT = 60;
const OLD = 3;

/** A home with COUNT sessions in one project (written directly, as the benchmarks do), RARE in session OLD. */
async function manyInProject(): Promise<{ home: string; cwd: string; old: string }> {
  const home = tmpHome();
  const cwd = join(tmpHome('chatkeep-project-'), 'work');
  const { manager, template } = await openProject(home, cwd);
  await manySessions(manager, template, COUNT, (i, messages) => {
    if (i === OLD) messages[1]!.content = `${messages[1]!.content} and a ${RARE} appeared`;
  });
  await manager.close();
  return { home, cwd, old: idAt(OLD * 60) };
}

/** The screen as the terminal shows it now, one string. */
async function shown(run: PtyRun): Promise<string> {
  return (await run.visible()).join('\n');
}

/** Waits until the visible screen matches `what`. */
async function until(run: PtyRun, what: string | RegExp, timeout = 10_000): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const screen = await shown(run);
    if (typeof what === 'string' ? screen.includes(what) : what.test(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${String(what)}. Screen:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('session browser', () => {
  it('-r: a word from an old session (beyond the 50 most recent) finds it; Enter resumes it', async () => {
    const where = await manyInProject();
    const run = spawnPty(['-r'], where);
    await until(run, 'Resume which session?');
    const first = await until(run, /· 61 of 61/);
    expect(first).not.toContain(where.old);
    run.write(RARE);
    const found = await until(run, /· 1 of 61/);
    expect(found).toContain(`› ${where.old}`);
    run.write('\r');
    await run.waitFor(`Resumed session ${where.old}`);
    expect(await run.quit()).toBe(0);
  });
});

/** Makes a finished session with one exchange, through the real program; resolves to its ID. */
async function madeSession(where: { home: string; cwd: string }, text: string): Promise<string> {
  const made = await runPiped([], `${text}\n/quit\n`, where);
  expect(made.code).toBe(0);
  return /Resume with: .*--session-id (\S+)/.exec(made.stderr)![1]!;
}

describe('session browser: leaving changes nothing', () => {
  const KEYS: [string, string][] = [
    ['Esc', '\x1b'],
    ['Ctrl-C', '\x03'],
    ['Ctrl-D', '\x04'],
    ['q', 'q'],
  ];
  it('-r: Esc, Ctrl-C, Ctrl-D and q (on an empty query) leave the data directory byte-identical, after typing, moving, Tab and filters', async () => {
    const where = await manyInProject();
    // The listing's and the search's indexes are caches a first reading writes; the listing records
    // the sessions directory's time only once it is 2 s old (index-store.ts), so it is aged. A
    // browser that only reads must leave them as they are after that.
    ageSessionDirs(where.home);
    expect((await runPiped(['sessions', 'list'], '', where)).code).toBe(0);
    expect((await runPiped(['sessions', 'search', 'journal'], '', where)).code).toBe(0);
    const before = treeDigest(where.home);
    for (const [name, key] of KEYS) {
      const run = spawnPty(['-r'], where);
      await until(run, '· 61 of 61 ·');
      run.write(RARE);
      await until(run, '· 1 of 61 ·');
      run.write('\x15'); // Ctrl-U: the query cleared
      await until(run, '· 61 of 61 ·');
      run.write('\x1b[B\x1b[B\x1b[6~\t');
      await until(run, 'every project');
      run.write('\x14'); // Ctrl-T: status filter
      await until(run, 'Filters: status open');
      if (key === '\x1b') {
        run.write('x');
        await until(run, '· 0 of 61 ·');
        run.write('\x7f');
        await until(run, '· 0 of 61 ·'); // still filtered by status open
      }
      run.write(key);
      expect(await run.exited, `${name} leaves`).toBe(0);
      expect(run.screen(), name).toContain('No session picked. Start a new one with: chatkeep');
      expect(treeDigest(where.home), `${name} changed nothing`).toEqual(before);
    }
  }, 90_000);
});

/** The messages of a session on disk, as `sessions show --json` gives them. */
async function shownMessages(id: string, where: { home: string; cwd: string }): Promise<string[]> {
  const shownJson = await runPiped(['sessions', 'show', id, '--json'], '', where);
  expect(shownJson.code).toBe(0);
  return (JSON.parse(shownJson.stdout) as { messages: { content: string }[] }).messages.map((m) => m.content);
}

/** The stale time the tests run with: the browser is left open for several of them. */
const STALE = { CHATKEEP_LOCK_STALE_MS: '2000' };

describe('session browser in the chat (/load)', () => {
  it('keeps the lock beating while open; Esc stays, Enter on a found session switches', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const other = await madeSession(where, 'the platypus conversation');
    const { run, id } = await startAtPrompt([], { ...where, env: STALE });
    await run.say('first words', 'Echo: first words (read 1 message)');
    await run.prompt();
    run.line('/load');
    await until(run, 'Load which session?');
    // The heartbeat goes on with the browser open: the lock's time moves on twice (a beat is half
    // the stale time). Touching the lock instead would tell its holder it was taken over.
    const lock = join(sessionDir(where.home, id)!, 'lock');
    for (let beat = 0; beat < 2; beat++) {
      const before = statSync(lock).mtimeMs;
      await expect.poll(() => statSync(lock).mtimeMs, { timeout: 10_000, interval: 50 }).toBeGreaterThan(before);
    }
    for (const host of [undefined, 'other-host']) {
      const second = await runPiped(['--session-id', id], 'typed elsewhere\n/quit\n', { ...where, env: STALE, host });
      expect(second.code, `a second process on ${host ?? 'this host'}: ${second.stderr}`).toBe(3);
      expect(second.stderr).toContain(`Session ${id} is in use by process ${run.pid} on `);
    }
    run.write('\x1b');
    await run.waitFor(`Cancelled; still in ${id}.`);
    await run.say('second words', 'Echo: second words (read 3 messages)');
    await run.prompt();
    run.line('/load');
    await until(run, 'Load which session?');
    run.write('platypus');
    const found = await until(run, /· 1 of 2/);
    expect(found).toContain(`› ${other}`);
    run.write('\r');
    await run.waitFor(`Saved ${id} (4 messages). Switched to ${other}.`);
    await run.waitFor(`Resumed session ${other}`);
    expect(await run.quit()).toBe(0);
    expect(await shownMessages(id, where)).toEqual(['first words', 'Echo: first words (read 1 message)', 'second words', 'Echo: second words (read 3 messages)']);
  }, 60_000);

  it('a hang-up inside the browser saves the session and exits 0', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    await madeSession(where, 'an older conversation');
    const { run, id } = await startAtPrompt([], where);
    await run.say('first words', 'Echo: first words (read 1 message)');
    await run.prompt();
    run.line('/load');
    await until(run, 'Load which session?');
    run.destroy();
    expect(await run.exited).toBe(0);
    expect(await shownMessages(id, where)).toEqual(['first words', 'Echo: first words (read 1 message)']);
    const listed = await runPiped(['sessions', 'list', '--json'], '', where);
    expect((JSON.parse(listed.stdout) as { id: string; status: string }[]).find((row) => row.id === id)?.status).toBe('closed');
  });

  it('-r: a hang-up inside the browser exits 0 and creates nothing', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    await madeSession(where, 'an older conversation');
    // The listing's cache settled (see above), so that only what the run itself wrote can differ.
    ageSessionDirs(where.home);
    expect((await runPiped(['sessions', 'list'], '', where)).code).toBe(0);
    const before = treeDigest(where.home);
    const run = spawnPty(['-r'], where);
    await until(run, 'Resume which session?');
    run.destroy();
    expect(await run.exited).toBe(0);
    expect(treeDigest(where.home)).toEqual(before);
  });
});

describe('session browser: the terminal', () => {
  it('fits 80×24 (preview toggled with ^O), redraws on resize to 60×20, and leaves the terminal as it found it', async () => {
    const where = await manyInProject();
    const run = spawnPty(['-r'], { ...where, cols: 80, rows: 24 });
    await until(run, '· 61 of 61 ·');
    const fits = async (cols: number, rows: number): Promise<string[]> => {
      const lines = await run.visible();
      expect(lines.length).toBeLessThanOrEqual(rows);
      for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(cols);
      return lines;
    };
    let lines = await fits(80, 24);
    expect(lines[0]).toMatch(/^Resume which session\?/);
    expect(lines[2]).toBe('Search:');
    expect(lines.filter((line) => line.startsWith('  session-') || line.startsWith('› session-')).length).toBeGreaterThanOrEqual(15);
    expect(lines.join('\n')).toContain('Enter resume');
    // The preview, below the list on a narrow terminal.
    run.write('\x0f');
    await until(run, `project ${where.cwd}`);
    lines = await fits(80, 24);
    expect(lines.some((line) => /^─+$/.test(line))).toBe(true);
    run.resize(60, 20);
    await until(run, /^─{59}$/m);
    lines = await fits(60, 20);
    expect(lines[0]).toMatch(/^Resume which session\?/);
    run.write('\x1b');
    expect(await run.exited).toBe(0);
    // Back on the normal screen, with the cursor shown again.
    expect(run.output().endsWith('\x1b[?25h') || run.output().includes('\x1b[?25h\x1b[?1049l')).toBe(true);
    expect((await run.visible()).join('\n')).not.toContain('Resume which session?');
  });

  it('NO_COLOR: no colour at all, and the highlighted row is still marked', async () => {
    const where = await manyInProject();
    const run = spawnPty(['-r'], { ...where, env: { NO_COLOR: '1' } });
    await until(run, '· 61 of 61 ·');
    run.write('\x1b[B');
    const screen = await until(run, /^› session-20250101-005900 /m);
    expect(screen).toMatch(/^ {2}session-\d{8}-\d{6} /m);
    // eslint-disable-next-line no-control-regex
    expect(run.output()).not.toMatch(/\x1b\[[0-9;]*m/);
    run.write('\x03');
    expect(await run.exited).toBe(0);
  });

  it('piped, sessions browse and -r say in one line that they need a terminal', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    await madeSession(where, 'an older conversation');
    for (const [args, what] of [[['sessions', 'browse'], 'sessions browse'], [['-r'], '--resume']] as const) {
      const run = await runPiped([...args], '', where);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(`${what} needs an interactive terminal: pass --session-id ID instead. IDs: chatkeep sessions list`);
    }
  });
});

describe('session browser: actions on the highlighted session', () => {
  it('renames, forks, exports and moves to the trash (restore command shown, and it runs); the chat’s own session cannot go', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const other = await madeSession(where, 'the emu conversation');
    const { run, id } = await startAtPrompt([], where);

    await run.say('first words', 'Echo: first words (read 1 message)');
    await run.prompt();
    run.line('/load');
    await until(run, 'Load which session?');
    // The chat's own session is listed, marked, and refused the trash.
    await until(run, 'this chat');
    run.write('emu');
    await until(run, /· 1 of 2/);
    // Rename: ^R, the title replaced, Enter.
    run.write('\x12');
    await until(run, 'Rename to');
    run.write('\x15Emu talk\r');
    await until(run, `Renamed ${other} to "Emu talk".`);
    await until(run, 'Emu talk');
    // Export: ^E, a file name, Enter.
    run.write('\x05');
    await until(run, 'Export to file');
    run.write(`\x15emu.md\r`);
    await until(run, `Exported ${other} (2 messages) as md to ${join(where.cwd, 'emu.md')}`);
    // Fork: the new session is highlighted once the query is cleared.
    run.write('\x06');
    const forked = /Forked \S+ as (\S+) \(2 messages\)/.exec(await until(run, /Forked \S+ as \S+ \(2 messages\)/))![1]!;
    // The listing read again (the fork counted) before the query is cleared: the fork is listed
    // under the session it came from, its family opened for it.
    await until(run, /· \d+ of 3 ·/);
    run.write('\x15');
    await until(run, new RegExp(`› ${forked} .*└─ at 2 · Emu talk`));
    // Trash the fork: the restore command stands on its own line.
    run.write('\x18');
    const trashed = await until(run, `Moved ${forked} to the trash. Restore with:`);
    const restore = trashed.split('\n').find((line) => line.includes('sessions restore'))!.trim();
    expect(restore).toMatch(new RegExp(`sessions restore ${forked}$`));
    // The chat's own session (found by its ID, marked): refused.
    run.write(id);
    // Once the search over the whole ID has answered: after the fork went, the chat's row may be
    // highlighted already, before the ID typed is read.
    await until(run, searchAnswered(id, `${id} .* this chat `));
    run.write('\x18');
    await until(run, `${id} is the session of this chat: leave it or /load another one first. Nothing moved.`);
    run.write('\x1b');
    await run.waitFor(`Cancelled; still in ${id}.`);
    // What the actions said is on the screen after the browser too.
    expect(run.screen()).toContain(`Moved ${forked} to the trash. Restore with:`);
    expect(await run.quit()).toBe(0);
    // On disk: renamed, exported, the fork in the trash; the restore command runs as printed.
    const listed = JSON.parse((await runPiped(['sessions', 'list', '--json'], '', where)).stdout) as { id: string; title: string | null }[];
    expect(listed.find((row) => row.id === other)?.title).toBe('Emu talk');
    expect(listed.map((row) => row.id)).not.toContain(forked);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(where.cwd, 'emu.md'), 'utf8')).toContain('the emu conversation');
    const words = restore.split(' ');
    const again = await runPiped(words.slice(words.indexOf('sessions')), '', where);
    expect(again.code, again.stderr).toBe(0);
    expect(await shownMessages(forked, where)).toEqual(['the emu conversation', 'Echo: the emu conversation (read 1 message)']);
  }, 60_000);

  it('a session open in another process is marked and refuses the trash and a rename, naming the holder', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    await madeSession(where, 'the first one');
    const { run: holder, id: held } = await startAtPrompt([], where);
    await holder.say('the held one', 'Echo: the held one (read 1 message)');
    const run = spawnPty(['-r'], where);
    await until(run, 'Resume which session?');
    await until(run, `› ${held}`);
    await until(run, 'in use');
    await until(run, `in use by process ${holder.pid} on `);
    run.write('\x18');
    await until(run, `Not moved to the trash: Session ${held} is in use by process ${holder.pid} on `);
    run.write('\x12\x15new name\r');
    await until(run, `Not renamed: Session ${held} is in use by process ${holder.pid} on `);
    run.write('\x1b');
    expect(await run.exited).toBe(0);
    // Both refusals stay on the screen after the browser.
    const after = (await run.visible()).join('\n');
    expect(after).toContain(`Not moved to the trash: Session ${held} is in use by process ${holder.pid} on `);
    expect(after).toContain(`Not renamed: Session ${held} is in use by process ${holder.pid} on `);
    // Enter on it: refused as --session-id is (exit 3), naming the holder.
    const again = spawnPty(['-r'], where);
    await until(again, `› ${held}`);
    again.write('\r');
    await again.waitFor(`Session ${held} is in use by process ${holder.pid} on `);
    expect(await again.exited).toBe(3);
    expect(await holder.quit()).toBe(0);
    expect(await shownMessages(held, where)).toEqual(['the held one', 'Echo: the held one (read 1 message)']);
  }, 60_000);
});
