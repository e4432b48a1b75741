/**
 * An imported session must not look damaged to an older chatkeep. What an older build calls
 * damaged is decided by its shipped snapshot validator, kept in test/fixtures/older-readers: the
 * release 0.1.0's, and the one of the build just before `sessions import --from` (ff3ca67), whose
 * schema has `importedFrom` as an ID. The snapshot this build writes for a conversation read from
 * another tool passes both. The form of 2026-11-25 (the source in `importedFrom`) fails the
 * second; this build still reads that form, with the source moved to `importSource`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { openSessions } from '../../../src/index.js';
import { discover } from '../../../src/import/discover.js';
import { importPeers } from '../../../src/import/run-import.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const CLAUDE = join(FIXTURES, 'peers/claude-2.1.330/.claude/projects/-tmp-chatkeep-peers-work/7a102932-3dc2-459c-854f-70f9a8b19989.jsonl');

type Validate = ((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };
const readers: [string, Validate][] = await Promise.all(
  ['release-0.1.0', 'before-import-from'].map(async (name) => {
    const module = (await import(join(FIXTURES, `older-readers/${name}.session.validate.mjs`))) as { validate: Validate };
    return [name, module.validate] as [string, Validate];
  }),
);
const beforeImportFrom = readers[1]![1];

async function importedSnapshotFile(): Promise<{ file: string; home: string; cwd: string; id: string }> {
  const home = tmpHome();
  const cwd = tmpHome();
  const sessions = await openSessions({ home, cwd });
  const found = await discover({ tool: 'claude', paths: [CLAUDE], cwd, all: true, env: {}, userHome: tmpHome() });
  const [outcome] = await importPeers(sessions, { tool: 'claude', files: found.files, cwd, all: true, dryRun: false, toolVersion: 'test' });
  expect(outcome).toMatchObject({ action: 'new' });
  const id = outcome!.id!;
  await sessions.close();
  // Stored in the project the conversation was held in.
  const [project] = readdirSync(join(home, 'projects'));
  const file = join(home, 'projects', project!, 'sessions', id, 'session.json');
  return { file, home, cwd, id };
}

describe('an imported session, read by older builds', () => {
  it('passes their snapshot validators: a session like any other, not damaged', async () => {
    const { file } = await importedSnapshotFile();
    const json = (JSON.parse(readFileSync(file, 'utf8')) as { json: Record<string, unknown> }).json;
    expect(json.importSource).toMatchObject({ tool: 'claude', path: CLAUDE });
    expect(json.importedFrom).toBeUndefined();
    for (const [name, validate] of readers) expect(validate(json), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
  });

  it('the form of 2026-11-25 fails the build before it, and this build reads that form with its source in importSource', async () => {
    const { file, home, cwd, id } = await importedSnapshotFile();
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { json: Record<string, unknown> };
    const { importSource, ...rest } = doc.json;
    doc.json = { ...rest, importedFrom: importSource };
    expect(beforeImportFrom(doc.json)).toBe(false);
    expect(beforeImportFrom.errors?.[0]?.instancePath).toBe('/importedFrom');
    writeFileSync(file, JSON.stringify(doc));
    const sessions = await openSessions({ home, cwd });
    const read = await sessions.read(id);
    expect(read.importSource).toEqual(importSource);
    expect(read.importedFrom).toBeUndefined();
    await sessions.close();
  });
});
