import { describe, expect, it } from 'vitest';
import { save } from '../../../src/repl/commands/save.js';
import { createMockCommandContext } from '../../helpers/mock-command-context.js';

describe('/save', () => {
  it('saves and prints the ID, message count and path', async () => {
    const ctx = await createMockCommandContext();
    await ctx.session.current.append({ role: 'user', content: 'hi' });
    const result = await save.run(ctx, '');
    expect(result).toEqual({
      type: 'message',
      level: 'info',
      content: `Saved ${ctx.session.current.id} (1 message) to ${ctx.session.current.dir}/session.json`,
    });
    expect(ctx.session.current.saves).toBe(1);
  });

  it('sets the title when one is given', async () => {
    const ctx = await createMockCommandContext();
    const result = await save.run(ctx, 'auth bug hunt');
    expect(result.type === 'message' && result.content).toContain('as "auth bug hunt" (0 messages)');
    expect(ctx.session.current.title).toBe('auth bug hunt');
  });
});
