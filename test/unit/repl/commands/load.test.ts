import { describe, expect, it } from 'vitest';
import { load } from '../../../../src/repl/commands/load.js';
import { createFakeBrowser, createMockCommandContext } from '../../../helpers/mock-command-context.js';

describe('/load', () => {
  it('switches to the one named (by unique prefix), leaving the one save to the REPL closing the current', async () => {
    const ctx = await createMockCommandContext();
    await ctx.memory.stored({ id: 'session-20261001-090000', messages: [{ role: 'user', content: 'old', timestamp: new Date() }] });
    await ctx.session.current.append({ role: 'user', content: 'current' });
    const before = ctx.memory.snapshotOf(ctx.session.current.id);
    const result = await load.run(ctx, 'session-202610');
    expect(result.type).toBe('switch');
    if (result.type !== 'switch') return;
    expect(result.session.id).toBe('session-20261001-090000');
    expect(result.content).toBe('Switched to session-20261001-090000.');
    expect(ctx.memory.snapshotOf(ctx.session.current.id)).toBe(before);
  });

  it('says so when asked for the current session', async () => {
    const ctx = await createMockCommandContext();
    expect(await load.run(ctx, ctx.session.current.id)).toEqual({ type: 'message', level: 'info', content: `Already in session ${ctx.session.current.id}.` });
  });

  it('refuses a session held by another process, naming the holder, and stays', async () => {
    const ctx = await createMockCommandContext();
    await ctx.memory.stored({ id: 'session-held' });
    ctx.memory.hold('session-held', { pid: 999, host: 'box', startedAt: '2026-11-22T14:00:00.000Z' });
    const result = await load.run(ctx, 'session-held');
    expect(result).toEqual({
      type: 'message',
      level: 'error',
      content: `Session session-held is in use by process 999 on box (since 30 minutes ago): quit it there first. Or continue in a copy of it: chatkeep --fork session-held
Still in ${ctx.session.current.id}.`,
    });
    // The current session is still this process's to write.
    expect(await ctx.services.sessions.holder(ctx.session.current.id)).toEqual(expect.objectContaining({ pid: process.pid }));
  });

  it('reports an unknown or malformed ID in one line', async () => {
    const ctx = await createMockCommandContext();
    const unknown = await load.run(ctx, 'nope');
    expect(unknown.type === 'message' && unknown.content).toBe(
      `No session \`nope\`. List sessions with: /sessions --all\nStill in ${ctx.session.current.id}.`,
    );
    const bad = await load.run(ctx, '../x');
    expect(bad.type === 'message' && bad.level).toBe('error');
    expect(bad.type === 'message' && bad.content).toContain('Invalid session ID `../x`');
  });

  it('opens the session browser without an ID and loads the chosen session, after what its actions said', async () => {
    const browser = createFakeBrowser(['session-other'], ['Forked session-x as session-other (2 messages). Enter resumes it.']);
    const ctx = await createMockCommandContext({ browser });
    await ctx.memory.stored({ id: 'session-other' });
    const result = await load.run(ctx, '');
    expect(browser.headings).toEqual(['Load which session?']);
    expect(result.type === 'switch' && result.session.id).toBe('session-other');
    expect(result.type === 'switch' && result.content).toBe('Forked session-x as session-other (2 messages). Enter resumes it.\nSwitched to session-other.');
  });

  it('stays when the browser is cancelled', async () => {
    const ctx = await createMockCommandContext({ browser: createFakeBrowser([]) });
    await ctx.memory.stored({ id: 'session-other' });
    expect(await load.run(ctx, '')).toEqual({ type: 'message', level: 'info', content: `Cancelled; still in ${ctx.session.current.id}.` });
  });

  it('asks for an ID when there is no terminal for the browser', async () => {
    const ctx = await createMockCommandContext();
    expect(await load.run(ctx, '')).toEqual({ type: 'message', level: 'info', content: 'Usage: /load ID (find IDs with /sessions).' });
  });
});
