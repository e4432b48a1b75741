import { existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, spawnPty, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** Chats `lines` in a new session (piped), quits, and returns its ID. */
async function chat(home: string, cwd: string, ...lines: string[]): Promise<string> {
  const run = await runPiped([], `${lines.join('\n')}\n/quit\n`, { home, cwd });
  const id = /Saved (\S+) \(/.exec(run.stderr)?.[1];
  if (run.code !== 0 || !id) throw new Error(`chat failed: ${run.stderr}`);
  return id;
}

function search(home: string, cwd: string, ...args: string[]) {
  return runPiped(['sessions', 'search', ...args], '', { home, cwd });
}

/** The project's search index file (one project per test home). */
function indexFile(home: string): string {
  const [slug] = readdirSync(join(home, 'projects'));
  return join(home, 'projects', slug!, 'search.idx');
}

describe('chatkeep sessions search', () => {
  it('finds message text literally, ignoring case and Unicode forms, best sessions first with a snippet', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const formula = await chat(home, cwd, 'is (a+b)*c the same as ac+bc?');
    const street = await chat(home, cwd, 'Die Straße heißt Hauptstraße', 'und die andere STRASSE?');
    const plain = await chat(home, cwd, 'abc and a-b-c, no brackets');

    const first = await search(home, cwd, '(A+B)*C');
    expect(first.code).toBe(0);
    // The index did not exist yet: built, and said so in one line on stderr.
    expect(first.stderr).toBe('');
    const lines = first.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^  ${formula}\\s+less than a minute ago\\s+2 messages · \\d+ tokens\\s+closed\\s+is \\(a\\+b\\)\\*c the same as ac\\+bc\\?$`));
    // The echo assistant repeats the question: two hits, and the automatic title a third; the later message's snippet.
    expect(lines[1]).toBe('    3 hits · assistant: Echo: is (a+b)*c the same as ac+bc? (read 1 message)');
    expect(lines).toHaveLength(3);
    expect(first.stdout).not.toContain(plain);

    // Regex characters are plain text: `a.c` is not "a, any character, c".
    expect((await search(home, cwd, 'a.c')).stdout).toBe('No sessions in this project match "a.c". (--all searches every project)\n');

    // ß folds to ss: STRASSE finds Straße, Hauptstraße and STRASSE, each said twice (the echo);
    // the snippet is from the message with the most hits (the latest of equals). The index is
    // used as it is now.
    const street2 = await search(home, cwd, 'strasse');
    expect(street2.stderr).toBe('');
    expect(street2.stdout.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(new RegExp(`^  ${street}\\s`)),
      // and twice in the automatic title (the first message).
      '    8 hits · assistant: Echo: Die Straße heißt Hauptstraße (read 1 message)',
    ]);
    const hauptstrasse = await search(home, cwd, 'HAUPTSTRASSE');
    expect(hauptstrasse.stdout).toContain('    3 hits · assistant: Echo: Die Straße heißt Hauptstraße (read 1 message)\n');
  });

  it('ranks by hit count, then the most recently active', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const once = await chat(home, cwd, 'one kiwi');
    const thrice = await chat(home, cwd, 'kiwi', 'kiwi kiwi');
    const alsoOnce = await chat(home, cwd, 'another kiwi');
    const out = await search(home, cwd, 'kiwi', '--json');
    const json = JSON.parse(out.stdout) as { total: number; results: { id: string; hits: number }[] };
    expect(json.results.map((r) => [r.id, r.hits])).toEqual([
      // Each title (automatic: the first message) holds it once more.
      [thrice, 7],
      [alsoOnce, 3],
      [once, 3],
    ]);
    expect(json.total).toBe(3);
    const limited = JSON.parse((await search(home, cwd, 'kiwi', '--json', '--limit', '1')).stdout) as typeof json;
    expect(limited.total).toBe(3);
    expect(limited.results.map((r) => r.id)).toEqual([thrice]);
    expect((await search(home, cwd, 'kiwi', '--limit', '2')).stdout).toMatch(/\n2 of 3 matching sessions shown, best first\. --limit N shows more \(0: all\)\.\n$/);
  });

  it('--json has the documented shape', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const id = await chat(home, cwd, 'where is the Lockfile kept?', '/title Locks');
    const out = await search(home, cwd, 'lockfile', '--json');
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      query: 'lockfile',
      total: 1,
      results: [
        {
          id,
          title: 'Locks',
          titleSource: 'user',
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
          updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
          messageCount: 2,
          status: 'closed',
          project: cwd,
          usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
          hits: 2,
          matched: { id: false, title: false, messages: 2 },
          snippet: {
            message: 1,
            role: 'assistant',
            timestamp: expect.stringMatching(/Z$/),
            archived: false,
            text: 'Echo: where is the Lockfile kept? (read 1 message)',
            highlights: [[19, 27]],
          },
        },
      ],
    });
  });

  it('rebuilds a deleted or damaged index and says so', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    await chat(home, cwd, 'papaya salad');
    await chat(home, cwd, 'papaya juice');
    expect((await search(home, cwd, 'papaya')).stderr).toBe('');
    const built = readFileSync(indexFile(home));

    rmSync(indexFile(home));
    const deleted = await search(home, cwd, 'papaya', '--json');
    expect(deleted.stderr).toBe('');
    expect(JSON.parse(deleted.stdout).total).toBe(2);
    expect(readFileSync(indexFile(home)).equals(built)).toBe(true);

    writeFileSync(indexFile(home), 'garbage, not an index');
    const garbage = await search(home, cwd, 'papaya', '--json');
    expect(garbage.stderr).toBe('Search index rebuilt: it was damaged (not a chatkeep search index); 2 sessions indexed.\n');
    expect(JSON.parse(garbage.stdout).total).toBe(2);

    truncateSync(indexFile(home), built.length - 10);
    const cut = await search(home, cwd, 'papaya', '--json');
    expect(cut.stderr).toMatch(/^Search index rebuilt: it was damaged \(\d+ bytes, the header accounts for \d+\); 2 sessions indexed\.\n$/);
    expect(JSON.parse(cut.stdout).total).toBe(2);
    expect((await search(home, cwd, 'papaya')).stderr).toBe('');
  });

  it('finds what was said after the index was built, also in a session still open in another terminal', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const id = await chat(home, cwd, 'first words');
    expect((await search(home, cwd, 'mango', '--json')).stdout).toContain('"total": 0');

    const resumed = await runPiped(['--session-id', id], 'now a mango\n/quit\n', { home, cwd });
    expect(resumed.code).toBe(0);
    const after = await search(home, cwd, 'mango', '--json');
    expect(after.stderr).toBe('');
    expect(JSON.parse(after.stdout).results.map((r: { id: string }) => r.id)).toEqual([id]);
    // What changed since the index was built may be kept apart (search.recent.idx); damaged, it is dropped too.
    writeFileSync(indexFile(home).replace('search.idx', 'search.recent.idx'), 'garbage');
    const damagedRecent = await search(home, cwd, 'mango', '--json');
    expect(damagedRecent.stderr).toBe('Search index rebuilt: it was damaged (search.recent.idx: not a chatkeep search index).\n');
    expect(JSON.parse(damagedRecent.stdout).total).toBe(1);

    // A live chat: its message is in its journal only (no snapshot yet), and found.
    const { run, id: live } = await startAtPrompt([], { home, cwd });
    await run.say('a papaya and a mango', 'Echo: a papaya');
    const during = await search(home, cwd, 'papaya', '--json');
    const found = JSON.parse(during.stdout) as { results: { id: string; status: string; hits: number }[] };
    // Its automatic title (the first message) is a hit too.
    expect(found.results).toEqual([expect.objectContaining({ id: live, status: 'open', hits: 3 })]);
    expect(await run.quit()).toBe(0);
  });

  it('searches every project with --all', async () => {
    const home = tmpHome();
    const here = tmpHome('chatkeep-project-');
    const there = tmpHome('chatkeep-other-');
    const mine = await chat(home, here, 'quince here');
    const theirs = await chat(home, there, 'quince there');
    const local = JSON.parse((await search(home, here, 'quince', '--json')).stdout) as { results: { id: string }[] };
    expect(local.results.map((r) => r.id)).toEqual([mine]);
    const all = await search(home, here, 'quince', '--all');
    expect(all.stderr).toBe('');
    expect(all.stdout).toContain(`  ${theirs} `);
    expect(all.stdout).toContain(`[${there}]`);
    expect(all.stdout).toContain(`  ${mine} `);
  });

  it('refuses an empty query in one line with exit 2, and creates nothing without a data home', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    for (const query of [[], ['']]) {
      const out = await search(home, cwd, ...query);
      expect(out).toEqual({ code: 2, stdout: '', stderr: 'chatkeep: sessions search needs some text to look for. See chatkeep sessions --help\n' });
    }
    const help = await search(home, cwd, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('  chatkeep sessions search TEXT [--all] [--limit N] [--json]\n');
    expect(help.stdout).toContain('--limit N');
    const absent = join(home, 'absent');
    expect(await search(absent, cwd, 'x')).toEqual({ code: 0, stdout: 'No sessions in this project match "x". (--all searches every project)\n', stderr: '' });
    expect(existsSync(absent)).toBe(false);
  });

  it('highlights hits on a terminal only', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    await chat(home, cwd, 'a Fig tree');
    const piped = await search(home, cwd, 'fig');
    expect(piped.stdout).toContain('assistant: Echo: a Fig tree');
    expect(piped.stdout).not.toContain('\x1b');
    const tty = spawnPty(['sessions', 'search', 'fig'], { home, cwd });
    expect(await tty.exited).toBe(0);
    expect(tty.output()).toContain('Echo: a \x1b[7mFig\x1b[27m tree');
    const noColor = spawnPty(['sessions', 'search', 'fig'], { home, cwd, env: { NO_COLOR: '1' } });
    expect(await noColor.exited).toBe(0);
    expect(noColor.output()).toContain('Echo: a Fig tree');
  });
});

describe('/sessions TEXT in the chat', () => {
  it('searches message text as well as IDs and titles, highlighting hits', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const older = await chat(home, cwd, 'the Durian smells', '/title fruit talk');
    const titled = await chat(home, cwd, 'nothing to see', '/title durian notes');
    const { run, id } = await startAtPrompt([], { home, cwd });
    await run.say('/sessions durian', 'to switch)');
    const screen = run.screen();
    const shown = screen.slice(screen.lastIndexOf('/sessions durian'));
    expect(shown).not.toContain('Search index');
    const rows = shown.split('\n').filter((l) => l.startsWith('  session-') || l.startsWith('    '));
    expect(rows).toEqual([
      expect.stringMatching(new RegExp(`^  ${older}\\s.*fruit talk$`)),
      '    2 hits · assistant: Echo: the Durian smells (read 1 message)',
      expect.stringMatching(new RegExp(`^  ${titled}\\s.*durian notes$`)),
      '    1 hit · matched the title',
    ]);
    expect(run.output()).toContain('Echo: the \x1b[7mDurian\x1b[27m smells');
    expect(shown).not.toContain(id);
    // Without text: the listing, as before.
    await run.say('/sessions', '/sessions --all for every project');
    expect(await run.quit()).toBe(0);
  });
});
