/**
 * `sessions import --from` into a PostgreSQL store: the session and its `importSource` (with the
 * kept source lines) are on the server, a second run writes nothing, and a grown source is
 * brought up to date there as in the file store.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runPiped, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { createDatabase } from '../helpers/postgres.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/peers');

describe('sessions import --from on PostgreSQL', () => {
  it('keeps the import and where it came from on the server, idempotent, and brings a grown source up to date', async () => {
    const dir = join(FIXTURES, readdirSync(FIXTURES).find((d) => d.startsWith('codex-'))!);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { sessionId: string; files: string[] };
    const lines = readFileSync(join(dir, manifest.files.find((f) => f.endsWith('.jsonl'))!), 'utf8').split('\n');
    const sources = tmpHome('chatkeep-sources-');
    const file = join(sources, 'rollout-2026-11-25T07-44-49-test.jsonl');
    // The rollout as it was after the first turn.
    const firstTurn = lines.findIndex((l) => l.includes('"type":"task_complete"'));
    writeFileSync(file, `${lines.slice(0, firstTurn + 1).join('\n')}\n`);
    const home = tmpHome();
    const options: RunOptions = { home, cwd: tmpHome('chatkeep-project-'), env: { CHATKEEP_STORE: await createDatabase(inject('postgresAdminUrl')), HOME: tmpHome('chatkeep-user-') } };
    const run = async (args: string[]): Promise<string> => {
      const result = await runPiped(args, '', options);
      expect(result.code, result.stderr).toBe(0);
      return result.stdout;
    };
    const id = `codex-${manifest.sessionId}`;
    expect(await run(['sessions', 'import', '--from', 'codex', file])).toContain(`as ${id}: 2 messages`);
    const shown = JSON.parse(await run(['sessions', 'show', id, '--json'])) as { importSource: { tool: string; id: string; path: string; kept: unknown[] }; messages: unknown[] };
    expect(shown.importSource).toMatchObject({ tool: 'codex', id: manifest.sessionId, path: file });
    expect(shown.importSource.kept.length).toBeGreaterThan(0);
    expect(await run(['sessions', 'import', '--from', 'codex', file])).toBe('Nothing to import: 1 Codex CLI session already imported and unchanged.\n');

    writeFileSync(file, lines.join('\n'));
    expect(await run(['sessions', 'import', '--from', 'codex', file])).toContain(`Brought ${id} up to date with Codex CLI session ${manifest.sessionId}: 6 new messages.`);
    expect((JSON.parse(await run(['sessions', 'show', id, '--json'])) as { messages: unknown[] }).messages).toHaveLength(8);
    // Nothing went into the data directory: the server holds it all.
    expect(readdirSync(home)).toEqual([]);
  });
});
