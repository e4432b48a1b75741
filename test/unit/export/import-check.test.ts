import { describe, expect, it } from 'vitest';
import { checkImport } from '../../../src/export/import-check.js';
import { exportJson } from '../../../src/export/json.js';
import { UserError } from '../../../src/session/api/errors.js';
import { richSnapshot } from './fixture.js';

const good = (): Record<string, Record<string, unknown>> => JSON.parse(exportJson(richSnapshot(), '0.1.0')) as Record<string, Record<string, unknown>>;

async function refusal(text: string): Promise<UserError> {
  const error = await checkImport(text, '`x.json`').then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(UserError);
  expect((error as UserError).exitCode).toBe(2);
  expect((error as UserError).message).not.toContain('\n');
  return error as UserError;
}

const SUGGESTION = '; nothing was imported.';

describe('checking an import', () => {
  it('refuses what is not JSON, or not an export', async () => {
    expect((await refusal('hello')).message).toMatch(/^Cannot import `x.json`: it is not JSON \(.+\); nothing was imported\.$/);
    expect((await refusal('hello')).advice).toEqual({ to: 'Import a file written by:', run: ['sessions', 'export', 'ID', '--format', 'json'] });
    expect((await refusal('[1,2]')).message).toBe(`Cannot import \`x.json\`: it is not a chatkeep export (not a JSON object)${SUGGESTION}`);
    expect((await refusal('{"format":"other.tool"}')).message).toBe(
      `Cannot import \`x.json\`: it is not a chatkeep export (format \`other.tool\`, not \`chatkeep.export\`)${SUGGESTION}`,
    );
    expect((await refusal('{"json":{"format":"chatkeep.session"},"meta":{}}')).message).toBe(
      `Cannot import \`x.json\`: it is a session's own file (session.json), not an export${SUGGESTION}`,
    );
  });

  it('refuses a newer exportVersion, naming the chatkeep that wrote it', async () => {
    const document = { ...good(), exportVersion: 2, exportedBy: 'chatkeep 0.9.0' };
    expect((await refusal(JSON.stringify(document))).message).toBe(
      'Cannot import `x.json`: it was written by chatkeep 0.9.0 with exportVersion 2, newer than this chatkeep reads (1); upgrade chatkeep to import it; nothing was imported.',
    );
  });

  it('refuses session IDs that could leave the data directory, whatever field holds them', async () => {
    for (const id of ['../x', 'a/b', '.hidden', 'x'.repeat(300), '', 'a\u0000b']) {
      const document = good();
      document.session!.id = id;
      expect((await refusal(JSON.stringify(document))).message).toMatch(/^Cannot import `x.json`: its session ID `.*` is not a valid ID|: it does not match the export schema: \/session\/id/);
    }
    for (const field of ['parentId', 'importedFrom']) {
      const document = good();
      document.session![field] = '../../etc';
      expect((await refusal(JSON.stringify(document))).message).toContain(`it does not match the export schema: /session/${field} must match pattern`);
    }
  });

  it('refuses what does not match the schema, and fields it does not know', async () => {
    const document = good();
    (document.session!.messages as Record<string, unknown>[])[1]!.role = 'robot';
    expect((await refusal(JSON.stringify(document))).message).toBe(
      `Cannot import \`x.json\`: it does not match the export schema: /session/messages/1/role must be equal to one of the allowed values${SUGGESTION}`,
    );
    const unknown = good();
    unknown.session!.host = 'laptop';
    expect((await refusal(JSON.stringify(unknown))).message).toContain('/session must NOT have additional properties (`host`)');
    const missing = good();
    delete missing.session!.messages;
    expect((await refusal(JSON.stringify(missing))).message).toContain("/session must have required property 'messages'");
  });

  it('refuses times that are not real dates', async () => {
    const document = good();
    document.session!.createdAt = '2026-13-45T99:99:99.000Z';
    expect((await refusal(JSON.stringify(document))).message).toBe(
      `Cannot import \`x.json\`: /session/createdAt \`2026-13-45T99:99:99.000Z\` is not a real time${SUGGESTION}`,
    );
  });

  it('keeps unusual keys as plain data, never as prototypes', async () => {
    const text = exportJson(richSnapshot(), '0.1.0').replace('"role": "tool",', '"role": "tool",\n"__proto__": {"polluted": true},');
    const snapshot = await checkImport(text, 'x');
    const tool = snapshot.messages[2] as unknown as Record<string, unknown>;
    expect(Object.hasOwn(tool, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(tool)).toBe(Object.prototype);
  });
});
