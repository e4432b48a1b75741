import { describe, expect, it } from 'vitest';
import { reset } from '../../../../src/repl/commands/reset.js';
import { createMockCommandContext } from '../../../helpers/mock-command-context.js';

describe('/reset', () => {
  it('archives the conversation, keeps the ID and says how many messages were archived', async () => {
    const ctx = await createMockCommandContext();
    await ctx.session.current.append({ role: 'user', content: 'a' });
    await ctx.session.current.append({ role: 'assistant', content: 'b' });
    const id = ctx.session.current.id;
    const result = await reset.run(ctx, '');
    expect(result).toEqual({ type: 'message', level: 'info', content: `Archived 2 messages inside ${id}; the conversation starts afresh.` });
    expect(ctx.session.current.messages).toHaveLength(0);
    expect(ctx.session.current.archived[0]?.messages.map((m) => m.content)).toEqual(['a', 'b']);
    expect(ctx.session.current.id).toBe(id);
  });

  it('does nothing to an empty conversation', async () => {
    const ctx = await createMockCommandContext();
    expect(await reset.run(ctx, '')).toEqual({ type: 'message', level: 'info', content: 'The conversation is already empty.' });
    expect(ctx.session.current.archived).toHaveLength(0);
  });
});
