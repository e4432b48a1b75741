import { describe, expect, it } from 'vitest';
import { sessions } from '../../../../src/repl/commands/sessions.js';
import { createMockCommandContext } from '../../../helpers/mock-command-context.js';

describe('/sessions', () => {
  it("lists this project's sessions newest first with the current one marked", async () => {
    const ctx = await createMockCommandContext();
    // A session is listed once it holds a message (docs/design.md §3): each here holds one.
    const message = (content: string) => ({ role: 'assistant' as const, content, timestamp: ctx.memory.now() });
    await ctx.session.current.append(message('hello'));
    ctx.memory.advance(-3_600_000);
    await ctx.memory.stored({ id: 'session-20261122-130000', title: 'older', messages: [message('old')] });
    ctx.memory.advance(3_600_000);
    await ctx.memory.stored({ id: 'session-elsewhere', project: '/other', messages: [message('far')] });
    const result = await sessions.run(ctx, '');
    expect(result.type).toBe('message');
    if (result.type !== 'message') return;
    const lines = result.content.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^\\* ${ctx.session.current.id}\\s+less than a minute ago\\s+1 message\\s+open\\s+\\(untitled\\)$`));
    expect(lines[1]).toMatch(/^ {2}session-20261122-130000\s+about 1 hour ago\s+1 message\s+closed\s+older$/);
    expect(result.content).not.toContain('session-elsewhere');
  });

  it('lists every project with --all and filters by text', async () => {
    const ctx = await createMockCommandContext();
    await ctx.memory.stored({ id: 'session-elsewhere', project: '/other', title: 'Auth work' });
    const all = await sessions.run(ctx, '--all auth');
    const lines = all.type === 'message' ? all.content.split('\n') : [];
    expect(lines[0]).toMatch(/^ {2}session-elsewhere .* Auth work {2}\[\/other\]$/);
    expect(lines[1]).toBe('    1 hit · matched the title');
  });

  it('searches message text: ranked, with hit counts and a highlighted snippet', async () => {
    const ctx = await createMockCommandContext();
    const at = ctx.memory.now();
    await ctx.memory.stored({ id: 'session-20261122-100000', title: 'one', messages: [{ role: 'user', content: 'the Lockfile is stale', timestamp: at }] });
    await ctx.memory.stored({
      id: 'session-20261122-110000',
      title: 'two',
      messages: [
        { role: 'user', content: 'why a lockfile?', timestamp: at },
        { role: 'assistant', content: 'A LOCKFILE keeps two writers apart; the lockfile is proper-lockfile.', timestamp: at },
      ],
    });
    const result = await sessions.run(ctx, 'lockfile');
    const lines = result.type === 'message' ? result.content.split('\n') : [];
    expect(lines[0]).toMatch(/^ {2}session-20261122-110000 .* two$/);
    expect(lines[1]).toBe('    4 hits · assistant: A [LOCKFILE] keeps two writers apart; the [lockfile] is proper-[lockfile].');
    expect(lines[2]).toMatch(/^ {2}session-20261122-100000 .* one$/);
    expect(lines[3]).toBe('    1 hit · user: the [Lockfile] is stale');
    expect(lines[4]).toBe('(/load ID to switch)');
  });

  it('says when nothing matches', async () => {
    const ctx = await createMockCommandContext();
    expect(await sessions.run(ctx, 'zzz')).toEqual({
      type: 'message',
      level: 'info',
      content: 'No sessions in this project match "zzz". Try /sessions --all.',
    });
  });
});
