#!/usr/bin/env node
// Writes schema/session.schema.json and schema/export.schema.json from their TypeScript
// sources (src/session/format/schema.ts, src/export/schema.ts, as built into dist/), then regenerates
// the standalone validators. Run after changing a schema: `npm run build && node scripts/write-schemas.mjs`.
// Unit tests fail while a committed file differs from what this writes.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const { sessionJsonSchema } = await import(new URL('dist/src/session/format/schema.js', root).href);
const { exportJsonSchema } = await import(new URL('dist/src/export/schema.js', root).href);
for (const [name, schema] of [['session', sessionJsonSchema], ['export', exportJsonSchema]]) {
  writeFileSync(new URL(`schema/${name}.schema.json`, root), `${JSON.stringify(schema, null, 2)}\n`);
}
execFileSync(process.execPath, [new URL('schema/build-validator.mjs', root).pathname], { stdio: 'inherit' });
