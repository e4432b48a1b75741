/**
 * `chatkeep sessions export` and `sessions import` through pipes, as a script uses them: the
 * JSON archive survives a trip through another data directory byte for byte, a taken ID is
 * never overwritten, secrets are redacted on the way in, and bad input writes nothing.
 */
import { readFileSync, truncateSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSessions } from '../../src/index.js';
import { MAX_IMPORT_BYTES } from '../../src/export/import-check.js';
import { runPiped, type RunOptions } from '../helpers/pty.js';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { treeDigest } from '../helpers/tree-digest.js';

const SECRET = `ghp_${'A1b2'.repeat(9)}`;

/** A session made by chatting through a pipe; its ID. */
async function chat(lines: string[], options: RunOptions, flags: string[] = []): Promise<string> {
  const run = await runPiped(flags, `${[...lines, '/quit'].join('\n')}\n`, options);
  expect(run.code).toBe(0);
  return /Saved (\S+) \(/.exec(run.stderr)![1]!;
}

async function ok(args: string[], input: string, options: RunOptions): Promise<string> {
  const run = await runPiped(args, input, options);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout;
}

describe('sessions export and import', () => {
  it('exports, imports into another data directory and exports again to the same bytes', async () => {
    const cwd = tmpHome('chatkeep-project-');
    const home = tmpHome();
    const id = await chat(['hello', '/title The plan', '/reset', 'show me ```js code', 'and <b>this</b>'], { home, cwd });
    // Lineage: a fork of it, made by the library, exported in turn.
    const sessions = await openSessions({ home, cwd });
    const fork = await sessions.fork(id, { at: 2 });
    await fork.close();

    for (const which of [id, fork.id]) {
      const exported = await ok(['sessions', 'export', which], '', { home, cwd });
      const document = JSON.parse(exported) as { session: Record<string, unknown> };
      expect(document).toMatchObject({ format: 'chatkeep.export', exportVersion: 1, session: { id: which } });
      const other = tmpHome();
      const imported = await ok(['sessions', 'import', '-'], exported, { home: other, cwd });
      expect(imported).toMatch(new RegExp(`^Imported ${which}: \\d messages?(, and 2 cleared by /reset)?, into project ${cwd}\\.\\nResume with: .*--session-id ${which}\\n$`));
      expect(await ok(['sessions', 'export', which], '', { home: other, cwd })).toBe(exported);
    }
    const forkDocument = JSON.parse(await ok(['sessions', 'export', fork.id], '', { home, cwd })) as { session: Record<string, unknown> };
    expect(forkDocument.session).toMatchObject({ parentId: id, forkPoint: 2, title: 'The plan' });
    const original = JSON.parse(await ok(['sessions', 'export', id], '', { home, cwd })) as { session: { archived: { messages: unknown[] }[] } };
    expect(original.session.archived[0]!.messages).toHaveLength(2);

    // A summary (set by /compact) and the rest of the session survive the trip too.
    const withSummary = { ...original, session: { ...original.session, summary: 'We planned.' } };
    const file = join(cwd, 'summary.json');
    writeFileSync(file, `${JSON.stringify(withSummary, null, 2)}\n`);
    const third = tmpHome();
    await ok(['sessions', 'import', file], '', { home: third, cwd });
    expect(await ok(['sessions', 'export', id], '', { home: third, cwd })).toBe(readFileSync(file, 'utf8'));
  });

  it('gives an ID taken here a new one, records the old as importedFrom, and overwrites nothing', async () => {
    const cwd = tmpHome('chatkeep-project-');
    const home = tmpHome();
    const id = await chat(['hello'], { home, cwd });
    const file = join(cwd, 'export.json');
    expect((await runPiped(['sessions', 'export', id, '-o', file], '', { home, cwd })).code).toBe(0);
    const before = treeDigest(sessionDir(home, id)!);

    const imported = JSON.parse(await ok(['sessions', 'import', file, '--json'], '', { home, cwd })) as Record<string, unknown>;
    expect(imported).toEqual({ id: expect.stringMatching(/^session-\d{8}-\d{6}(-\d+)?$/), importedFrom: id, title: 'hello', project: cwd, messageCount: 2, archivedMessages: 0 });
    expect(imported.id).not.toBe(id);
    expect(treeDigest(sessionDir(home, id)!)).toEqual(before);

    const again = JSON.parse(await ok(['sessions', 'export', imported.id as string], '', { home, cwd })) as { session: Record<string, unknown> };
    expect(again.session).toMatchObject({ id: imported.id, importedFrom: id });
    const listed = JSON.parse(await ok(['sessions', 'list', '--json'], '', { home, cwd })) as { id: string }[];
    expect(listed.map((row) => row.id).sort()).toEqual([id, imported.id].sort());
    // The imported session resumes like any other.
    const resumed = await runPiped(['--session-id', imported.id as string], 'more\n/quit\n', { home, cwd });
    expect(resumed.stdout).toBe('Echo: more (read 3 messages)\n');
  });

  it('redacts secrets on the way in, unless --no-redact', async () => {
    const cwd = tmpHome('chatkeep-project-');
    const home = tmpHome();
    const id = await chat([`my token is ${SECRET}`], { home, cwd }, ['--no-redact']);
    const exported = await ok(['sessions', 'export', id], '', { home, cwd });
    expect(exported).toContain(SECRET);

    const redacted = tmpHome();
    await ok(['sessions', 'import', '-'], exported, { home: redacted, cwd });
    const files = Object.keys(treeDigest(redacted)!).filter((name) => !name.endsWith('/'));
    for (const name of files) expect(readFileSync(join(redacted, name), 'utf8')).not.toContain(SECRET);
    expect(await ok(['sessions', 'show', id], '', { home: redacted, cwd })).toContain('my token is [REDACTED:github-token]');

    const kept = tmpHome();
    await ok(['sessions', 'import', '-', '--no-redact'], exported, { home: kept, cwd });
    expect(await ok(['sessions', 'show', id], '', { home: kept, cwd })).toContain(`my token is ${SECRET}`);
  });

  it('refuses bad input in one line with exit 2, writing nothing', async () => {
    const cwd = tmpHome('chatkeep-project-');
    const home = tmpHome();
    const id = await chat(['hello'], { home, cwd });
    const good = JSON.parse(await ok(['sessions', 'export', id], '', { home, cwd })) as { exportVersion: number; session: Record<string, unknown> };
    const write = (name: string, text: string): string => {
      writeFileSync(join(cwd, name), text);
      return name;
    };
    const big = join(cwd, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, MAX_IMPORT_BYTES + 1);
    mkdirSync(join(cwd, 'folder'));
    const cases: [string[], string, RegExp][] = [
      [['sessions', 'import', write('text.json', 'hello')], '', /^Cannot import `text\.json`: it is not JSON \(.+\); nothing was imported\. Import a file written by: .*sessions export ID --format json$/],
      [['sessions', 'import', write('other.json', '{"format":"other"}')], '', /^Cannot import `other\.json`: it is not a chatkeep export \(format `other`, not `chatkeep\.export`\)/],
      [['sessions', 'import', write('newer.json', JSON.stringify({ ...good, exportVersion: 2 }))], '', /^Cannot import `newer\.json`: it was written by chatkeep \S+ with exportVersion 2, newer than this chatkeep reads \(1\); upgrade chatkeep to import it; nothing was imported\.$/],
      [['sessions', 'import', write('dots.json', JSON.stringify({ ...good, session: { ...good.session, id: '../x' } }))], '', /^Cannot import `dots\.json`: its session ID `\.\.\/x` is not a valid ID/],
      [['sessions', 'import', write('long.json', JSON.stringify({ ...good, session: { ...good.session, id: 'a'.repeat(300) } }))], '', /^Cannot import `long\.json`: its session ID `a+…` is not a valid ID/],
      [['sessions', 'import', write('bad.json', JSON.stringify({ ...good, session: { ...good.session, messages: [{ role: 'user' }] } }))], '', /^Cannot import `bad\.json`: it does not match the export schema: \/session\/messages\/0 must have required property 'content'/],
      [['sessions', 'import', 'big.json'], '', /^Cannot import `big\.json`: it is larger than 512 MiB, the most an import reads; nothing was imported\. To read more, set CHATKEEP_IMPORT_LIMIT_MB to the size in MiB \(e\.g\. CHATKEEP_IMPORT_LIMIT_MB=1024\)\.$/],
      [['sessions', 'import', 'missing.json'], '', /^Cannot import `missing\.json`: there is no such file; nothing was imported\.$/],
      [['sessions', 'import', 'folder'], '', /^Cannot import `folder`: it is not a file; nothing was imported\.$/],
      [['sessions', 'import'], '', /^sessions import needs a file to read \(- for standard input\), or --from TOOL\. See .*sessions --help$/],
      [['sessions', 'import', 'x.json', '--format', 'md'], '', /^--format is an option of sessions export\. See .*sessions --help$/],
    ];
    // The guard is set lower for these: standard input past it, and a limit that is no number.
    const limited: [string[], string, RegExp, string][] = [
      [['sessions', 'import', '-'], ' '.repeat(1024 * 1024 + 1), /^Cannot import standard input: it is larger than 1 MiB, the most an import reads; nothing was imported\. To read more, set CHATKEEP_IMPORT_LIMIT_MB to the size in MiB \(e\.g\. CHATKEEP_IMPORT_LIMIT_MB=2\)\.$/, '1'],
      [['sessions', 'import', 'text.json'], '', /^Bad CHATKEEP_IMPORT_LIMIT_MB `lots`: give a whole number of MiB, at least 1\.$/, 'lots'],
    ];
    const absent = join(tmpHome(), 'absent');
    for (const [args, input, message, limit] of [...cases.map(([a, i, m]) => [a, i, m, undefined] as const), ...limited]) {
      for (const where of [home, absent]) {
        const before = treeDigest(where);
        const run = await runPiped(args, input, { home: where, cwd, ...(limit ? { env: { CHATKEEP_IMPORT_LIMIT_MB: limit } } : {}) });
        expect(run.code, args.join(' ')).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr.split('\n')).toHaveLength(2);
        expect(run.stderr.replace(/^chatkeep: /, '').trimEnd()).toMatch(message);
        expect(treeDigest(where), args.join(' ')).toEqual(before);
      }
    }
  });

  it('export: formats, files, help and bad input', async () => {
    const cwd = tmpHome('chatkeep-project-');
    const home = tmpHome();
    const id = await chat(['look: ```py', 'fine'], { home, cwd });

    const md = await ok(['sessions', 'export', id, '--format', 'md'], '', { home, cwd });
    // Its automatic title, from the first message, heads it (backticks escaped).
    expect(md).toContain('# look: \\`\\`\\`py\n');
    expect(md).toContain('### You · ');
    // Backticks in the middle of a line open no fence: the message stays Markdown, unfenced.
    expect(md).toContain('\n\nlook: ```py\n\n');
    // The file's extension picks the format; the line saying so goes to stderr.
    const run = await runPiped(['sessions', 'export', id.slice(0, -1), '-o', 'notes.md'], '', { home, cwd });
    expect(run).toEqual({ code: 0, stdout: '', stderr: `Exported ${id} (4 messages) as md to ${join(cwd, 'notes.md')}\n` });
    expect(readFileSync(join(cwd, 'notes.md'), 'utf8')).toBe(md);
    expect(await ok(['sessions', 'export', id, '--format', 'html'], '', { home, cwd })).toMatch(/^<!DOCTYPE html>\n/);

    const help = await ok(['sessions', 'export', '--help'], '', { home, cwd });
    expect(help).toContain('chatkeep sessions export ID [--format json|md|html] [-o FILE]');
    expect(help).toContain('-o, --output FILE');
    expect(help).not.toContain('--branch');
    expect(await ok(['sessions', 'import', '--help'], '', { home, cwd })).toContain('chatkeep sessions import FILE|- [--no-redact] [--json]');

    const before = treeDigest(home);
    const bad: [string[], RegExp][] = [
      [['sessions', 'export', 'session-19990101-000000'], /^No session `session-19990101-000000`\. List sessions with: .*sessions list --all$/],
      [['sessions', 'export', '../x'], /^Invalid session ID `\.\.\/x`/],
      [['sessions', 'export', id, '--format', 'pdf'], /^Unknown export format `pdf`: use --format json, md, html or claude\.$/],
      [['sessions', 'export', id, '-o', 'no/such/dir/x.json'], /^Cannot write `no\/such\/dir\/x\.json`: the directory `.*\/no\/such\/dir` does not exist\.$/],
      [['sessions', 'export', id, '-o', '.'], /^Cannot write `\.`: it is a directory\. Name a file in it\.$/],
      [['sessions', 'export'], /^sessions export needs a session ID\. See .*sessions --help$/],
      [['sessions', 'export', id, '--no-redact'], /^--no-redact is an option of sessions import\. See .*sessions --help$/],
    ];
    for (const [args, message] of bad) {
      const failed = await runPiped(args, '', { home, cwd });
      expect(failed.code, args.join(' ')).toBe(2);
      expect(failed.stdout).toBe('');
      expect(failed.stderr.replace(/^chatkeep: /, '').trimEnd()).toMatch(message);
    }
    expect(treeDigest(home)).toEqual(before);
  });
});
