import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { simulateCrash } from '../../helpers/crash.js';
import { FutureSchemaError, openSessions, SCHEMA_VERSION } from '../../../src/index.js';
import { decodeSnapshot, encodeSnapshot } from '../../../src/session/format/codec.js';
import { sessionJsonSchema } from '../../../src/session/format/schema.js';
import { layout } from '../../../src/store/file/layout.js';

const fixtures = join(import.meta.dirname, '../../fixtures');

describe('snapshot codec and versions', () => {
  it('validates with the committed JSON Schema file', () => {
    const committed: unknown = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schema/session.schema.json'), 'utf8'));
    expect(committed).toEqual(sessionJsonSchema);
    expect(SCHEMA_VERSION).toBe(3);
  });

  it('ships the standalone validator generated from that schema', async () => {
    // @ts-expect-error: a plain ES module script without types
    const { validatorSource } = (await import('../../../schema/build-validator.mjs')) as { validatorSource(schema: unknown): string };
    const root = join(import.meta.dirname, '../../..');
    const schema: unknown = JSON.parse(readFileSync(join(root, 'schema/session.schema.json'), 'utf8'));
    expect(readFileSync(join(root, 'schema/session.validate.mjs'), 'utf8')).toBe(validatorSource(schema));
  });

  it('ships validators that load as they are: one needing a require() (ajv runtime code, for minLength) would fall back to compiling ajv on every resume', async () => {
    for (const name of ['session', 'export']) {
      const validator = (await import(`../../../schema/${name}.validate.mjs`)) as { default: unknown };
      expect(typeof validator.default, name).toBe('function');
    }
  });

  it('round-trips Dates through superjson', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome() });
    const s = await sessions.create({ title: 'dates' });
    await s.append({ role: 'user', content: 'hi', timestamp: new Date('2026-01-02T03:04:05.678Z') });
    await s.close();
    const snap = await decodeSnapshot(readFileSync(join(s.where.files!.dir, 'session.json'), 'utf8'), 'session.json');
    expect(snap.messages[0].timestamp).toBeInstanceOf(Date);
    expect(snap.messages[0].timestamp.toISOString()).toBe('2026-01-02T03:04:05.678Z');
    expect(snap.status).toBe('closed');
    const again = await decodeSnapshot(await encodeSnapshot(snap), 'x');
    expect(again).toEqual(snap);
  });

  it("decodes by superjson's own walk when meta annotates anything but the model's Dates", async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome() });
    const s = await sessions.create({ title: 'dates' });
    await s.append({ role: 'user', content: 'hi', timestamp: new Date('2026-01-02T03:04:05.678Z') });
    await s.close();
    const written = JSON.parse(readFileSync(join(s.where.files!.dir, 'session.json'), 'utf8')) as { json: { title: string }; meta: { values: Record<string, unknown> } };
    // A title annotated as a Date: the model keeps none there, so the quick path must not take it.
    written.json.title = '2026-01-02T03:04:05.678Z';
    written.meta.values.title = ['Date'];
    const snap = await decodeSnapshot(JSON.stringify(written), 'session.json');
    expect(snap.title).toBeInstanceOf(Date);
    expect(snap.messages[0].timestamp).toBeInstanceOf(Date);
  });

  it('writes exactly what superjson reads back, for the known shape and for anything else', async () => {
    const superjson = (await import('superjson')).default;
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n));
    const snap = {
      format: 'chatkeep.session' as const, schemaVersion: 3, id: 'session-20260101-000000', title: 'a.b', createdAt: at(0), updatedAt: at(9),
      status: 'open' as const, project: '/p', host: 'h', pid: 1, toolVersion: '0.1.0', provider: { name: 'echo', model: null },
      systemPrompt: null, config: { 'x.y': { value: 3, source: 'flag' as const } },
      messages: [{ role: 'user' as const, content: 'hi', timestamp: at(1) }, { role: 'assistant' as const, content: 'yo', timestamp: at(2), usage: { inputTokens: 1, outputTokens: 2 } }],
      summary: null, archived: [{ archivedAt: at(3), messages: [{ role: 'user' as const, content: 'old', timestamp: at(0) }], summary: null, stats: { messageCount: 1, inputTokens: 0, outputTokens: 0 } }],
      stats: { messageCount: 2, inputTokens: 1, outputTokens: 2 }, journalSeq: 4,
    };
    const fast = await encodeSnapshot(snap);
    // A session that uses nothing version 3 added is written as version 2, and read back as 3.
    expect(superjson.parse(fast)).toEqual({ ...snap, schemaVersion: 2 });
    expect(await decodeSnapshot(fast, 'x')).toEqual(snap);
    expect(await decodeSnapshot(superjson.stringify(snap), 'x')).toEqual(snap);
    expect(JSON.parse(fast)).toEqual(JSON.parse(superjson.stringify({ ...snap, schemaVersion: 2, createdAt: at(0) })));
    // Outside the known shape (an undefined field), superjson itself encodes it.
    const loose = { ...snap, draft: undefined };
    expect(superjson.parse(await encodeSnapshot(loose))).toEqual({ ...snap, schemaVersion: 2 });
    // What this build would refuse to read back (a Map where a value belongs) is never written…
    const odd = { ...snap, config: { m: { value: new Map([[1, 2]]) as unknown as number, source: 'flag' as const } } };
    await expect(encodeSnapshot(odd)).rejects.toThrow(/^snapshot of session-20260101-000000 not written: \/config\/m\/value: /);
    // …and a file holding it (written by something else) is decoded through superjson, then refused.
    await expect(decodeSnapshot(superjson.stringify(odd), 'odd.json')).rejects.toThrow(/^odd\.json: invalid: /);
  });

  it('reads the known shape with its meta checked as text, and anything like it as superjson does', async () => {
    const superjson = (await import('superjson')).default;
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n));
    // Contents that spell the meta's own text: inside a JSON string its quotes are escaped.
    const tricky = '},"meta":{"values":{"createdAt":["Date"]},"v":1}';
    const snap = {
      format: 'chatkeep.session' as const, schemaVersion: 2, id: 'session-20260101-000000', title: tricky, createdAt: at(0), updatedAt: at(9),
      status: 'open' as const, project: '/p', host: 'h', pid: 1, toolVersion: '0.1.0', provider: { name: 'echo', model: null },
      systemPrompt: null, config: {}, summary: null, archived: [], journalSeq: 2, stats: { messageCount: 2, inputTokens: 0, outputTokens: 0 },
      messages: [{ role: 'user' as const, content: tricky, timestamp: at(1) }, { role: 'assistant' as const, content: ',"meta":', timestamp: at(2) }],
    };
    const text = await encodeSnapshot(snap);
    expect(text.endsWith(',"meta":{"values":{"createdAt":["Date"],"updatedAt":["Date"],"messages.0.timestamp":["Date"],"messages.1.timestamp":["Date"]},"v":1}}')).toBe(true);
    const read = await decodeSnapshot(text, 'x');
    expect(read).toEqual({ ...snap, schemaVersion: 3 });
    expect(read.messages[1]!.timestamp).toBeInstanceOf(Date);
    // The same meta with one annotation more, of a path the model keeps no Date at: superjson's walk.
    const more = text.replace('"messages.1.timestamp":["Date"]', '"messages.1.timestamp":["Date"],"title":["Date"]').replace(JSON.stringify(tricky), '"2026-01-02T03:04:05.678Z"');
    expect((await decodeSnapshot(more, 'x')).title).toEqual(new Date('2026-01-02T03:04:05.678Z'));
    expect(superjson.parse<{ title: unknown }>(more).title).toEqual(new Date('2026-01-02T03:04:05.678Z'));
    // A damaged json part before an intact meta is told as parsing the whole text tells it.
    const damaged = text.replace('"role":"assistant"', '"role":"assistant"}');
    const parseError = (() => {
      try {
        JSON.parse(damaged);
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('damaged text parsed');
    })();
    await expect(decodeSnapshot(damaged, 'd.json')).rejects.toThrow(`d.json: not JSON (${parseError})`);
  });

  it('migrates the version-1 fixture on read', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome() });
    const host = await sessions.create();
    await host.close();
    const id = 'session-20250314-091500';
    const dir = join(layout.project(sessions.store.location, sessions.project.key), 'sessions', id);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { mode: 0o700 });
    copyFileSync(join(fixtures, 'session-v1.json'), join(dir, 'session.json'));

    const snap = await sessions.read(id);
    expect(snap.schemaVersion).toBe(3);
    expect(snap.title).toBe('Fixing the auth bug');
    expect(snap.status).toBe('closed');
    expect(snap.provider).toEqual({ name: 'anthropic', model: 'claude-3-5-sonnet-latest' });
    expect(snap.project).toBe('/home/ann/work/api');
    expect(snap.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Why does login fail after the token refresh?'],
      ['assistant', 'The refresh handler stores the new token before the old request retries.'],
      ['user', 'Fix it please.'],
      ['assistant', 'Done: the retry now reads the token at send time.'],
    ]);
    expect(snap.messages[1].usage).toEqual({ inputTokens: 1200, outputTokens: 340 });
    expect(snap.messages[3].timestamp).toEqual(new Date('2025-03-14T09:20:41.250Z'));
    expect(snap.stats).toEqual({ messageCount: 4, inputTokens: 2850, outputTokens: 550 });
    expect(snap.createdAt).toEqual(new Date('2025-03-14T09:15:00.000Z'));

    // Resuming and saving writes the oldest version that holds the session: 2 for a plain chat
    // (builds before version 3 read it), 3 once a message uses what version 3 added.
    const s = await sessions.resume(id);
    expect(s.messages).toHaveLength(4);
    await s.append({ role: 'user', content: 'thanks' });
    await s.save();
    const stored = (): { schemaVersion: number; messages: unknown[] } =>
      (JSON.parse(readFileSync(join(dir, 'session.json'), 'utf8')) as { json: { schemaVersion: number; messages: unknown[] } }).json;
    expect(stored().schemaVersion).toBe(2);
    expect(stored().messages).toHaveLength(5);
    await s.append({ role: 'system', content: 'Answer briefly.' });
    await s.close();
    expect(stored().schemaVersion).toBe(3);
    expect(stored().messages).toHaveLength(6);
    expect((await sessions.read(id)).schemaVersion).toBe(3);
  });

  it('refuses a newer schemaVersion and leaves the file byte-identical', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome() });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'from the future' });
    await s.close();
    const file = join(s.where.files!.dir, 'session.json');
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { json: { schemaVersion: number } };
    raw.json.schemaVersion = 999;
    writeFileSync(file, JSON.stringify(raw));
    const bytes = readFileSync(file);

    const err = await sessions.resume(s.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FutureSchemaError);
    expect((err as FutureSchemaError).exitCode).toBe(2);
    expect((err as Error).message).toBe(
      `\`${file}\` has schemaVersion 999, newer than this chatkeep understands (${SCHEMA_VERSION}). Upgrade chatkeep to open it; the file was left untouched.`,
    );
    await expect(sessions.read(s.id)).rejects.toBeInstanceOf(FutureSchemaError);
    // The refused resume released its lock: trying again gives the same answer, not "in use".
    await expect(sessions.resume(s.id)).rejects.toBeInstanceOf(FutureSchemaError);
    expect((await sessions.list()).map((r) => r.id)).toContain(s.id);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(readdirSync(s.where.files!.dir).filter((n) => n.includes('corrupt'))).toEqual([]);
  });

  it('moves a damaged snapshot aside and rebuilds the session from the journal', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome() });
    const s = await sessions.create({ title: 'precious' });
    await s.append({ role: 'user', content: 'one' });
    await s.append({ role: 'assistant', content: 'two' });
    // Simulate a crash: the journal holds the turns, the process never closed.
    const file = join(s.where.files!.dir, 'session.json');
    writeFileSync(file, '{"json":{"format":"chatkeep.session","schemaVersion":2,"id":12}}');
    const damaged = readFileSync(file);
    await simulateCrash(s);

    const resumed = await sessions.resume(s.id);
    expect(resumed.messages.map((m) => m.content)).toEqual(['one', 'two']);
    expect(resumed.resumeReport.notices).toHaveLength(2);
    expect(resumed.resumeReport.notices[0]).toMatch(/^The snapshot was damaged \(.*\); it was moved to .*session\.json\.corrupt-/);
    expect(resumed.resumeReport.notices[1]).toMatch(/^Recovered 2 messages from the journal/);
    const aside = readdirSync(s.where.files!.dir).filter((n) => n.startsWith('session.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(s.where.files!.dir, aside[0])).equals(damaged)).toBe(true);
    // A fresh, valid snapshot was written at once.
    const fresh = await decodeSnapshot(readFileSync(file, 'utf8'), file);
    expect(fresh.messages).toHaveLength(2);
    await resumed.close();
  });
});

