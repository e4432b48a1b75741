import { describe, expect, it } from 'vitest';
import { sessions } from '../../../commands/sessions.js';
import { createMockCommandContext } from '../../helpers/mock-command-context.js';

describe('/sessions', () => {
  it("lists this project's sessions newest first with the current one marked", async () => {
    const ctx = await createMockCommandContext();
    ctx.sessions.advance(-3_600_000);
    ctx.sessions.add({ id: 'session-20261122-130000', title: 'older', messages: [] });
    ctx.sessions.advance(3_600_000);
    ctx.sessions.add({ id: 'session-elsewhere', project: '/other' });
    const result = await sessions.run(ctx, '');
    expect(result.type).toBe('message');
    if (result.type !== 'message') return;
    const lines = result.content.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^\\* ${ctx.session.id}\\s+less than a minute ago\\s+0 messages\\s+open\\s+\\(untitled\\)$`));
    expect(lines[1]).toMatch(/^ {2}session-20261122-130000\s+about 1 hour ago\s+0 messages\s+closed\s+older$/);
    expect(result.content).not.toContain('session-elsewhere');
  });

  it('lists every project with --all and filters by text', async () => {
    const ctx = await createMockCommandContext();
    ctx.sessions.add({ id: 'session-elsewhere', project: '/other', title: 'Auth work' });
    const all = await sessions.run(ctx, '--all auth');
    expect(all.type === 'message' && all.content).toMatch(/^ {2}session-elsewhere .* Auth work {2}\[\/other\]$/);
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
