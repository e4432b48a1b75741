/**
 * Long, wide and secret titles: stored capped and redacted, shown back as stored, and every
 * table and picker keeps one line per session, cut with `…` and measured in display columns.
 */
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { MAX_TITLE_LENGTH } from '../../src/index.js';
import { runPiped, spawnPty, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const LONG = 'word '.repeat(2000).trim(); // 9,999 characters
const CJK = '日本語のタイトル'.repeat(20); // 160 characters, 320 columns
const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(4)}`;

/** The pty is 160 columns wide. */
const COLUMNS = 160;

async function titled(home: string, cwd: string, title: string): Promise<string> {
  const run = await runPiped([], `hello\n/save ${title}\n`, { home, cwd });
  expect(run.code).toBe(0);
  return /Saved (\S+) \(/.exec(run.stderr)![1]!;
}

function listJson(stdout: string): { id: string; title: string }[] {
  return JSON.parse(stdout) as { id: string; title: string }[];
}

describe('long titles', () => {
  it(`are stored capped at ${MAX_TITLE_LENGTH} characters and shown cut with … in /save and sessions list`, async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const saved = await runPiped([], `hello\n/save ${LONG}\n`, { home, cwd });
    expect(saved.stdout).toMatch(/\nSaved session-\S+ as "(word ){11}word…" \(cut to 200 characters\) \(2 messages\) to \S+session\.json\n$/);
    const [row] = listJson((await runPiped(['sessions', 'list', '--json'], '', { home, cwd })).stdout);
    expect([...row!.title]).toHaveLength(MAX_TITLE_LENGTH);
    expect(row!.title).toBe(`${LONG.slice(0, MAX_TITLE_LENGTH - 1).trimEnd()}…`);
    const listed = await runPiped(['sessions', 'list'], '', { home, cwd });
    expect(listed.stdout.split('\n')).toHaveLength(2);
    expect(listed.stdout).toMatch(/ {2}closed {2}(word ){11}word…\n$/);
  });

  it('CJK titles are cut by display width, and every row of a terminal listing fits the terminal', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    await titled(home, cwd, CJK);
    await titled(home, cwd, `🙂 ${LONG}`);
    await titled(home, cwd, 'short');
    const piped = (await runPiped(['sessions', 'list'], '', { home, cwd })).stdout.trimEnd().split('\n');
    expect(piped).toHaveLength(3);
    // Each title column starts at the same display column and takes at most 60.
    const start = piped.map((line) => stringWidth(line.slice(0, line.indexOf('closed') + 'closed  '.length)));
    expect(new Set(start).size).toBe(1);
    for (const line of piped) expect(stringWidth(line) - start[0]!).toBeLessThanOrEqual(60);
    expect(piped[2]).toContain('日本語のタイトル日本語');
    expect(piped[2]).toMatch(/…$/);

    const run = spawnPty(['sessions', 'list'], { home, cwd });
    expect(await run.exited).toBe(0);
    const lines = run.screen().trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(COLUMNS);
    expect(lines[1]).toMatch(/🙂 word word .*…$/);
  });

  it('/sessions and the /load session browser keep one line per session at the terminal width', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const other = await titled(home, cwd, LONG);
    const { run, id } = await startAtPrompt([], { home, cwd });
    await run.say('hi', 'Echo: hi');
    await run.say('/save  ', `Saved ${id} (2 messages)`);
    let from = run.screen().length;
    await run.say('/sessions', '(/sessions --all');
    const listing = run.screen().slice(from).split('\n').filter((line) => line.includes('session-'));
    expect(listing).toHaveLength(2);
    for (const line of listing) expect(stringWidth(line)).toBeLessThanOrEqual(COLUMNS);
    expect(listing.find((line) => line.includes(`${other} `))).toMatch(/ closed {2}word word .*…$/);

    from = run.screen().length;
    await run.prompt();
    run.line('/load');
    await run.waitFor('Load which session?', { from });
    await run.waitFor(`${other} `, { from });
    const shown = await run.visible();
    for (const line of shown) expect(stringWidth(line), line).toBeLessThanOrEqual(COLUMNS);
    const rows = shown.filter((line) => line.startsWith(`› ${other} `) || line.startsWith(`  ${other} `));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^› session-.* closed +word word .*…/);
    run.write('\r');
    await run.waitFor(`Switched to ${other}.`, { from });
    expect(await run.quit()).toBe(0);
  });

  it('the --resume session browser keeps one line per session', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const id = await titled(home, cwd, LONG);
    const run = spawnPty(['-r'], { home, cwd });
    // Its row in the list (the preview beside it names the highlighted session too), once painted.
    const isRow = (line: string): boolean => line.startsWith(`› ${id} `) || line.startsWith(`  ${id} `);
    let shown = await run.visible();
    for (let i = 0; i < 200 && !shown.some(isRow); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      shown = await run.visible();
    }
    const rows = shown.filter(isRow);
    expect(rows).toHaveLength(1);
    for (const line of shown) expect(stringWidth(line), line).toBeLessThanOrEqual(COLUMNS);
    run.write('\r');
    await run.waitFor(`Resumed session ${id}`);
    expect(await run.quit()).toBe(0);
  });
});

describe('secret titles', () => {
  it('/save shows back the stored (redacted) title, never the typed secret', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const piped = await runPiped([], `hi\n/save deploy key ${TOKEN}\n`, { home, cwd });
    expect(piped.stdout).toMatch(/\nSaved \S+ as "deploy key \[REDACTED:github-token\]" \(2 messages\)/);
    expect(piped.stdout + piped.stderr).not.toContain(TOKEN);

    const { run, id } = await startAtPrompt([], { home, cwd });
    await run.say('hi', 'Echo: hi');
    await run.prompt();
    run.line(`/save notes ${TOKEN}`);
    const screen = await run.waitFor(`Saved ${id} as "notes [REDACTED:github-token]"`);
    // The typed line is the person's own echo; nothing chatkeep printed after it holds the token.
    expect(screen.slice(screen.indexOf(`/save notes ${TOKEN}`) + 12 + TOKEN.length)).not.toContain(TOKEN);
    expect(await run.quit()).toBe(0);
  });
});
