/**
 * A store that fails for now is not the session's problem: a statement cancelled by the server
 * (`statement_timeout`, here while another connection holds the events table) or refused by a
 * pooler in statement mode fails the command with one line, and leaves no `problem` on the
 * session, so the next listing shows it as it is rather than damaged for ever.
 */
import { describe, expect, inject, it } from 'vitest';
import { runPiped, savedChat, type RunOptions } from '../helpers/pty.js';
import { createDatabase } from '../helpers/postgres.js';
import { startPgBouncer } from '../helpers/pgbouncer.js';
import { tmpHome } from '../helpers/tmp-home.js';

interface Listed { id: string; messageCount: number; problem?: unknown }

/** What the database records as the session's problem, read as the admin. */
async function recordedProblem(url: string, id: string): Promise<unknown> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ problem: unknown }>('SELECT problem FROM chatkeep.sessions WHERE id = $1', [id])).rows[0]!.problem;
  } finally {
    await client.end();
  }
}

/** The session as a plain listing shows it afterwards, on a connection that works. */
async function listed(options: RunOptions, id: string): Promise<Listed | undefined> {
  const run = await runPiped(['sessions', 'list', '--json'], '', options);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as Listed[]).find((row) => row.id === id);
}

/** The command failed for now: one line on stderr, exit non-zero, no word of damage. */
function failedForNow(run: { code: number | null; stderr: string }): void {
  expect(run.code).not.toBe(0);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).not.toMatch(/damaged|unreadable|This is a bug/i);
}

describe('a transient store error', () => {
  it('a statement the server cancels (statement_timeout) leaves no problem on the session', async () => {
    const url = await createDatabase(inject('postgresAdminUrl'));
    const options: RunOptions = { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env: { CHATKEEP_STORE: url } };
    const id = await savedChat('hello\n/quit\n', options);

    const { default: pg } = await import('pg');
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      // Another connection holds the events table: reading the session waits, and the server
      // cancels the read after 300 ms. Writing a problem on the session's row would not wait.
      await holder.query('BEGIN; LOCK TABLE chatkeep.events IN ACCESS EXCLUSIVE MODE');
      const timed = new URL(url);
      timed.searchParams.set('options', '-c statement_timeout=300');
      const shown = await runPiped(['sessions', 'show', id], '', { ...options, env: { CHATKEEP_STORE: timed.toString() } });
      failedForNow(shown);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }

    expect(await recordedProblem(url, id)).toBeNull();
    expect(await listed(options, id)).toMatchObject({ id, messageCount: 2 });
    expect((await listed(options, id))?.problem).toBeUndefined();
  });

  it('a pooler in statement mode refusing the read leaves no problem on the session', async () => {
    const url = await createDatabase(inject('postgresAdminUrl'));
    const options: RunOptions = { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env: { CHATKEEP_STORE: url } };
    const id = await savedChat('hello\n/quit\n', options);

    const bouncer = await startPgBouncer(url, 'statement');
    try {
      for (const args of [['sessions', 'show', id], ['sessions', 'show', id, '--json'], ['sessions', 'list']]) {
        const run = await runPiped(args, '', { ...options, env: { CHATKEEP_STORE: bouncer.url(url) } });
        if (run.code !== 0) failedForNow(run);
      }
    } finally {
      await bouncer.stop();
    }

    expect(await recordedProblem(url, id)).toBeNull();
    expect(await listed(options, id)).toMatchObject({ id, messageCount: 2 });
    expect((await listed(options, id))?.problem).toBeUndefined();
  });
});
