import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { SessionInUseError, openSessions } from '../../src/index.js';
import { openCheckpointSaver } from '../../src/frameworks/langgraph/index.js';
import { startHost } from '../helpers/host-process.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { calls, said, startFakeResponsesServer } from '../helpers/fake-responses-server.js';
import { startPgBouncer } from '../helpers/pgbouncer.js';
import { createDatabase } from '../helpers/postgres.js';

const HOST = fileURLToPath(new URL('./langgraph-host.mjs', import.meta.url));
const SCRIPT = [[calls('fc_1', 'call_1', 'get_weather', { city: 'Oslo' })], [said('msg_2', 'It is sunny in Oslo.')]];

describe('chatkeep/langgraph: a LangGraph checkpointer kept by chatkeep', () => {
  it('a graph killed with -9 mid-run resumes from its last acknowledged checkpoint, nothing lost or run twice; one writer per thread', async () => {
    const home = tmpHome();
    const server = await startFakeResponsesServer(SCRIPT);
    const host = startHost(HOST, [home, home, server.baseURL, 'run']);
    const pid = Number((await host.line('holding ')).slice('holding '.length));
    await host.line('tool Oslo');

    // Another process writing the thread meanwhile is refused, the holder named.
    const sessions = await openSessions({ home, cwd: home });
    const other = await openCheckpointSaver(sessions);
    const refused = await other.deleteThread('trip-oslo').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SessionInUseError);
    expect((refused as SessionInUseError).owner?.pid).toBe(pid);
    // It reads the thread as stored so far, without its lock.
    expect((await other.getTuple({ configurable: { thread_id: 'trip-oslo' } }))?.checkpoint.id).toBe(host.lines.filter((l) => l.startsWith('checkpoint ')).at(-1)!.slice(11));
    await other.close();

    await host.kill9();
    const acknowledged = host.lines.filter((l) => l.startsWith('checkpoint ')).map((l) => l.slice('checkpoint '.length));
    const reader = await openCheckpointSaver(await openSessions({ home, cwd: home }));
    const last = await reader.getTuple({ configurable: { thread_id: 'trip-oslo' } });
    expect(last?.checkpoint.id).toBe(acknowledged.at(-1));
    const listed = [];
    for await (const t of reader.list({ configurable: { thread_id: 'trip-oslo' } })) listed.push(t.checkpoint.id);
    expect(listed).toEqual([...acknowledged].reverse());
    const messages = last!.checkpoint.channel_values.messages as { getType(): string }[];
    expect(messages.map((m) => m.getType())).toEqual(['human', 'ai']);
    await reader.close();

    // Resumed in a new process: the tool runs, the model is asked once more, and only once.
    const resumed = startHost(HOST, [home, home, server.baseURL, 'resume']);
    expect(await resumed.line('final ')).toBe('final It is sunny in Oslo.');
    expect(await resumed.end()).toBe(0);
    expect(server.requests).toHaveLength(2);
    const input = server.requests[1]!.input as Record<string, unknown>[];
    expect(input.map((i) => i.role ?? i.type)).toEqual(['user', 'function_call', 'function_call_output']);

    // The thread is a chatkeep session: listed, its conversation chatkeep's messages, searchable.
    const again = await openSessions({ home, cwd: home });
    expect((await again.list()).map((s) => s.id)).toEqual(['trip-oslo']);
    const stored = (await again.read('trip-oslo')).messages;
    expect(stored.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Weather in Oslo?'],
      ['assistant', ''],
      ['tool', 'Sunny in Oslo'],
      ['assistant', 'It is sunny in Oslo.'],
    ]);
    expect(stored[1]!.toolCalls?.map((c) => [c.id, c.name])).toEqual([['call_1', 'get_weather']]);
    expect((await again.search('sunny in Oslo')).results.map((r) => r.session.id)).toEqual(['trip-oslo']);
  });
  it('on PostgreSQL through PgBouncer (transaction pooling): one writer per thread, and a kill -9 lets the next take it at once', async () => {
    const server = await startFakeResponsesServer(SCRIPT);
    const direct = await createDatabase(inject('postgresAdminUrl'));
    const bouncer = await startPgBouncer(direct);
    try {
      const store = bouncer.url(direct);
      const home = tmpHome();
      const host = startHost(HOST, [home, home, server.baseURL, 'run', store]);
      const pid = Number((await host.line('holding ')).slice('holding '.length));
      await host.line('tool Oslo');
      // Another process, straight to the server, writing the thread meanwhile: refused, the holder named.
      const other = await openCheckpointSaver(await openSessions({ home: tmpHome(), cwd: home, store: direct }));
      const refused = await other.deleteThread('trip-oslo').catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(SessionInUseError);
      expect((refused as SessionInUseError).owner?.pid).toBe(pid);
      await other.close();

      await host.kill9();
      const resumed = startHost(HOST, [home, home, server.baseURL, 'resume', store]);
      expect(await resumed.line('final ')).toBe('final It is sunny in Oslo.');
      expect(await resumed.end()).toBe(0);
      expect(server.requests).toHaveLength(2);
      const stored = (await (await openSessions({ home: tmpHome(), cwd: home, store: direct })).read('trip-oslo')).messages;
      expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    } finally {
      await bouncer.stop();
    }
  });
});
