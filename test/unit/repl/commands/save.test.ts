import { describe, expect, it } from 'vitest';
import { save } from '../../../../src/repl/commands/save.js';
import { createMockCommandContext } from '../../../helpers/mock-command-context.js';

describe('/save', () => {
  it('saves and prints the ID, message count and path', async () => {
    const ctx = await createMockCommandContext();
    await ctx.session.current.append({ role: 'user', content: 'hi' });
    const result = await save.run(ctx, '');
    expect(result).toEqual({
      type: 'message',
      level: 'info',
      content: `Saved ${ctx.session.current.id} (1 message) to ${ctx.session.current.where.location}`,
    });
    // What the store holds now: a snapshot with the message.
    expect(ctx.memory.snapshotOf(ctx.session.current.id)).toBeDefined();
    expect((await ctx.services.sessions.read(ctx.session.current.id)).messages.map((m) => m.content)).toEqual(['hi']);
  });

  it('sets the title when one is given', async () => {
    const ctx = await createMockCommandContext();
    await ctx.session.current.append({ role: 'user', content: 'hi' });
    const result = await save.run(ctx, 'auth bug hunt');
    expect(result.type === 'message' && result.content).toContain('as "auth bug hunt" (1 message)');
    expect(ctx.session.current.title).toBe('auth bug hunt');
  });
});
