/**
 * LangGraph's checkpointer suite on PostgreSQL, a database of its own per checkpointer: each a
 * copy (`CREATE DATABASE … TEMPLATE`) of one that chatkeep's migrations have set up, so the
 * suite's many checkpointers do not each run them.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { openSessions } from '../../src/index.js';
import { createDatabase, runSql, withDatabase } from '../helpers/postgres.js';
import { validateOn } from './langgraph-validation.js';

let template: Promise<string> | undefined;

/** A database set up by chatkeep (its name), with no connection left open to it. */
async function migrated(admin: string): Promise<string> {
  const url = await createDatabase(admin);
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'chatkeep-langgraph-')));
  await (await openSessions({ home, cwd: home, store: url })).close();
  rmSync(home, { recursive: true, force: true });
  return new URL(url).pathname.slice(1);
}

validateOn('chatkeep/langgraph (PostgreSQL)', async () => {
  const admin = inject('postgresAdminUrl');
  const name = await (template ??= migrated(admin));
  const copy = `${name}_${Math.random().toString(36).slice(2, 8)}`;
  await runSql(admin, `CREATE DATABASE ${copy} TEMPLATE ${name}`);
  return { store: withDatabase(admin, copy) };
});
