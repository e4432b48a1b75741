/**
 * chatkeep on a PostgreSQL server, driven as people and scripts drive it: `CHATKEEP_STORE`
 * chooses the server, the same repository on two machines is one project, one writer across
 * machines, the server going away mid-chat, `sessions copy` both ways, and the password never
 * shown anywhere.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runPiped, savedChat, startAtPrompt, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { TEST_PASSWORD, createDatabase, startPostgres } from '../helpers/postgres.js';

/** A git work tree whose `origin` is `remote` (written as files: no git process needed). */
function repo(remote: string): string {
  const dir = tmpHome('chatkeep-repo-');
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(dir, '.git', 'config'), `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${remote}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
  return dir;
}

/** Every byte under `dir`, for looking for a secret. */
function allText(dir: string): string {
  if (!existsSync(dir)) return '';
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'latin1'))
    .join('\n');
}

async function database(): Promise<string> {
  return createDatabase(inject('postgresAdminUrl'));
}

describe('sessions on PostgreSQL through the CLI', () => {
  it('keeps, lists, shows and resumes a session on the server, writing no data directory and never showing the password', async () => {
    const url = await database();
    const home = tmpHome();
    const cwd = repo('git@github.com:ann/plans.git');
    const options: RunOptions = { home, cwd, env: { CHATKEEP_STORE: url } };
    const outputs: string[] = [];
    const run = async (args: string[], input = ''): Promise<string> => {
      const result = await runPiped(args, input, options);
      outputs.push(result.stdout, result.stderr);
      expect(result.code, result.stderr).toBe(0);
      return result.stdout;
    };
    const id = await savedChat('first on the server\n/quit\n', options);
    const listed = JSON.parse(await run(['sessions', 'list', '--json'])) as { id: string; messageCount: number; status: string }[];
    expect(listed).toMatchObject([{ id, messageCount: 2, status: 'closed' }]);
    const shown = JSON.parse(await run(['sessions', 'show', id, '--json'])) as { messages: { content: string }[] };
    expect(shown.messages.map((m) => m.content)).toEqual(['first on the server', 'Echo: first on the server (read 1 message)']);
    await run(['--session-id', id], 'second on the server\n/quit\n');
    expect(JSON.parse(await run(['sessions', 'show', id, '--json'])).messages).toHaveLength(4);
    // The data directory is for config and history only: a server store writes nothing into it.
    expect(readdirSync(home)).toEqual([]);
    for (const text of outputs) expect(text).not.toContain(TEST_PASSWORD);
  });

  it('is one project for one repository on two machines, and one writer across them (exit 3 naming the holder)', async () => {
    const url = await database();
    const here = repo('git@github.com:ann/plans.git');
    const there = repo('https://github.com/ann/plans');
    const first: RunOptions = { home: tmpHome(), cwd: here, env: { CHATKEEP_STORE: url } };
    const second: RunOptions = { home: tmpHome(), cwd: there, env: { CHATKEEP_STORE: url }, host: 'laptop-two' };
    const { run, id } = await startAtPrompt([], first);
    await run.say('held on the first machine', 'read 1 message');
    // The other machine, another clone: the same project's sessions, the held one open.
    const listing = await runPiped(['sessions', 'list', '--json'], '', second);
    expect(JSON.parse(listing.stdout)).toMatchObject([{ id, status: 'open' }]);
    const refused = await runPiped(['--session-id', id], 'not written\n', second);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(new RegExp(`Session ${id} is in use by process ${run.pid} on \\S+`));
    // Killed without a word: the server frees the lock with the connection, and the other machine takes over at once.
    run.kill('SIGKILL');
    await run.exited;
    const taken = await runPiped(['--session-id', id], 'on the second machine\n/quit\n', second);
    expect(taken.code, taken.stderr).toBe(0);
    const shown = JSON.parse((await runPiped(['sessions', 'show', id, '--json'], '', first)).stdout) as { messages: { content: string }[] };
    expect(shown.messages.map((m) => m.content)).toContain('held on the first machine');
    expect(shown.messages.map((m) => m.content)).toContain('on the second machine');
  });

  it('says so in one line when the server goes away mid-chat, keeps the typed line (↑ brings it back), and goes on once it is back', async () => {
    const server = await startPostgres();
    try {
      const url = await createDatabase(server.url);
      const options: RunOptions = { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env: { CHATKEEP_STORE: url } };
      const { run, id } = await startAtPrompt([], options);
      await run.say('before the outage', 'read 1 message');
      await server.halt();
      const from = run.screen().length;
      run.line('during the outage');
      await run.waitFor('Not sent, nothing of it was stored: press ↑ and Enter to send it again.', { from, timeout: 30_000 });
      const outage = run.screen().slice(from);
      expect(outage).toMatch(/Cannot reach the session store at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/\w+/);
      expect(outage).not.toMatch(/Echo: during the outage/);
      expect(outage).not.toContain(TEST_PASSWORD);
      await server.restart();
      // The line is in the input history: ↑ brings it back, Enter sends it.
      const recalled = run.screen().length;
      run.write('\x1b[A');
      await run.waitFor('during the outage', { from: recalled });
      run.write('\r');
      await run.waitFor('Echo: during the outage (read 3 messages)', { from, timeout: 30_000 });
      run.line('/quit');
      expect(await run.exited).toBe(0);
      const shown = JSON.parse((await runPiped(['sessions', 'show', id, '--json'], '', options)).stdout) as { messages: { content: string }[] };
      expect(shown.messages.map((m) => m.content)).toEqual([
        'before the outage',
        'Echo: before the outage (read 1 message)',
        'during the outage',
        'Echo: during the outage (read 3 messages)',
      ]);
    } finally {
      await server.stop();
    }
  });

  it('copies sessions to a data directory and back, a second run copying nothing', async () => {
    const url = await database();
    const cwd = tmpHome('chatkeep-project-');
    const onServer: RunOptions = { home: tmpHome(), cwd, env: { CHATKEEP_STORE: url } };
    const a = await savedChat('one\n/quit\n', onServer);
    const b = await savedChat('two\n/reset\nthree\n/quit\n', onServer);
    const files = tmpHome();
    const first = await runPiped(['sessions', 'copy', '--to', files], '', onServer);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`copied         ${a} (2 messages)`);
    expect(first.stdout).toContain(`copied         ${b} (4 messages)`);
    expect(first.stdout).toMatch(/Copied 2 sessions to .*\n6 messages in .* read back the same: content hash sha256:[0-9a-f]{16}/);
    const hash = /sha256:([0-9a-f]{16})/.exec(first.stdout)![1];
    const again = await runPiped(['sessions', 'copy', '--to', files], '', onServer);
    expect(again.stdout).toContain('Nothing to copy: all 2 sessions are already in');
    expect(again.stdout).toContain(`sha256:${hash}`);
    // The other way: the data directory's sessions are the server's already.
    const onFiles: RunOptions = { home: files, cwd };
    const back = await runPiped(['sessions', 'copy', '--to', url.replace(`:${TEST_PASSWORD}@`, '@'), '--json'], '', {
      ...onFiles,
      env: { PGPASSWORD: TEST_PASSWORD },
    });
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({ copied: 0, alreadyThere: 2, notCopied: 0, messages: 6 });
    expect(back.stdout).not.toContain(TEST_PASSWORD);
    expect(JSON.parse((await runPiped(['sessions', 'show', b, '--json'], '', onFiles)).stdout).archivedMessages).toBe(2);
  });

  it('refuses a password on the command line, in one line that does not show it', async () => {
    const url = await database();
    const home = tmpHome();
    for (const args of [['--store', url], ['sessions', 'list', '--store', url], ['sessions', 'copy', '--to', url]]) {
      const run = await runPiped(args, 'hi\n', { home, cwd: tmpHome('chatkeep-project-') });
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('holds a password, which every user of this machine can read in ps');
      expect(run.stderr).not.toContain(TEST_PASSWORD);
    }
    expect(allText(home)).toBe('');
  });

  it('says in one line, within seconds, that an unreachable server is unreachable', async () => {
    const run = await runPiped([], 'hi\n', { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env: { CHATKEEP_STORE: `postgres://ann:${TEST_PASSWORD}@127.0.0.1:1/chatkeep` } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^chatkeep: Cannot reach the session store at postgres:\/\/ann:\*\*\*@127\.0\.0\.1:1\/chatkeep \(connect ECONNREFUSED/);
    expect(run.stderr).not.toContain(TEST_PASSWORD);
  });
});

