import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportJsonSchema, STORAGE_FIELDS } from '../../../src/export/schema.js';
import { sessionJsonSchema } from '../../../src/session/format/schema.js';

const root = join(import.meta.dirname, '../../..');
const regenerate = 'regenerate with: npm run build && node scripts/write-schemas.mjs';

describe('the export schema', () => {
  it('is committed as schema/export.schema.json', () => {
    const committed: unknown = JSON.parse(readFileSync(join(root, 'schema/export.schema.json'), 'utf8'));
    expect(committed, regenerate).toEqual(exportJsonSchema);
  });

  it('ships the standalone validator generated from that schema', async () => {
    // @ts-expect-error: a plain ES module script without types
    const { validatorSource } = (await import('../../../schema/build-validator.mjs')) as { validatorSource(schema: unknown, name: string): string };
    const schema: unknown = JSON.parse(readFileSync(join(root, 'schema/export.schema.json'), 'utf8'));
    expect(readFileSync(join(root, 'schema/export.validate.mjs'), 'utf8'), regenerate).toBe(validatorSource(schema, 'export'));
  });

  it("carries every field of a session but the storage ones, so a field added to sessions is exported too", () => {
    const fields = Object.keys(exportJsonSchema.properties.session.properties);
    expect(fields).toEqual(Object.keys(sessionJsonSchema.properties).filter((name) => !STORAGE_FIELDS.includes(name)));
    expect(fields).toEqual(expect.arrayContaining(['messages', 'archived', 'summary', 'stats', 'parentId', 'forkPoint', 'importedFrom']));
    expect(fields).not.toContain('host');
  });
});
